import django.contrib.postgres.indexes
import django.contrib.postgres.search
import django.db.models.deletion
import django.db.models.functions.text
import uuid
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('accounts', '0001_initial'),
        ('media', '0001_initial'),
    ]

    operations = [
        # pg_trgm lives in the public schema (on every tenant's search_path), created once per
        # database; the title index at the end names its operator class.
        migrations.RunSQL(
            "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public",
            reverse_sql=migrations.RunSQL.noop,
        ),
        migrations.CreateModel(
            name='Category',
            fields=[
                ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                ('name', models.CharField(max_length=100)),
                ('slug', models.CharField(max_length=120, unique=True)),
                ('description', models.TextField(blank=True, default='')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
            ],
            options={
                'ordering': ('name',),
                'indexes': [models.Index(django.db.models.functions.text.Upper('name'), name='content_category_name_idx'), models.Index(fields=['-created_at'], name='content_category_created_idx')],
            },
        ),
        migrations.CreateModel(
            name='Tag',
            fields=[
                ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                ('name', models.CharField(max_length=100)),
                ('slug', models.CharField(max_length=120, unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
            ],
            options={
                'ordering': ('name',),
                'indexes': [models.Index(django.db.models.functions.text.Upper('name'), name='content_tag_name_idx'), models.Index(fields=['-created_at'], name='content_tag_created_idx')],
            },
        ),
        migrations.CreateModel(
            name='Post',
            fields=[
                ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                ('title', models.CharField(max_length=500)),
                ('slug', models.CharField(max_length=255, unique=True)),
                ('custom_slug', models.CharField(blank=True, default='', max_length=255)),
                ('excerpt', models.TextField(blank=True, default='')),
                ('content', models.TextField(blank=True, default='')),
                ('status', models.CharField(choices=[('draft', 'Draft'), ('published', 'Published'), ('archived', 'Archived')], default='draft', max_length=16)),
                ('published_at', models.DateTimeField(blank=True, null=True)),
                ('scheduled_publish_date', models.DateTimeField(blank=True, null=True)),
                ('publish_scheduled', models.BooleanField(default=False)),
                ('allow_indexing', models.BooleanField(default=True)),
                ('video_id', models.CharField(blank=True, default='', max_length=32)),
                ('meta_title', models.CharField(blank=True, default='', max_length=500)),
                ('meta_description', models.TextField(blank=True, default='')),
                ('canonical_url', models.CharField(blank=True, default='', max_length=2000)),
                ('focus_keyword', models.CharField(blank=True, default='', max_length=500)),
                ('og_title', models.CharField(blank=True, default='', max_length=500)),
                ('og_description', models.TextField(blank=True, default='')),
                ('twitter_title', models.CharField(blank=True, default='', max_length=500)),
                ('twitter_description', models.TextField(blank=True, default='')),
                ('search_vector', models.GeneratedField(db_persist=True, expression=django.contrib.postgres.search.CombinedSearchVector(django.contrib.postgres.search.SearchVector('title', config='english', weight='A'), '||', django.contrib.postgres.search.SearchVector('content', config='english', weight='B'), django.contrib.postgres.search.SearchConfig('english')), output_field=django.contrib.postgres.search.SearchVectorField())),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('author', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='posts', to='accounts.user')),
                ('categories', models.ManyToManyField(blank=True, related_name='posts', to='content.category')),
                ('featured_image', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='featured_in_posts', to='media.media')),
                ('og_image', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='media.media')),
                ('twitter_image', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='media.media')),
                ('tags', models.ManyToManyField(blank=True, related_name='posts', to='content.tag')),
            ],
            options={
                'ordering': ('-created_at',),
                'indexes': [models.Index(fields=['-created_at'], name='content_post_created_idx'), models.Index(fields=['status', '-created_at'], name='content_post_status_idx'), models.Index(fields=['status', '-published_at'], name='content_post_published_idx'), models.Index(fields=['author', '-created_at'], name='content_post_author_idx'), models.Index(condition=models.Q(('publish_scheduled', True)), fields=['scheduled_publish_date'], name='content_post_due_idx'), django.contrib.postgres.indexes.GinIndex(fields=['search_vector'], name='content_post_search_idx')],
            },
        ),
        # Partial matching on titles: `title__icontains` compiles to UPPER(title) LIKE UPPER(...).
        migrations.RunSQL(
            "CREATE INDEX content_post_title_trgm_idx ON content_post USING gin (UPPER(title) public.gin_trgm_ops)",
            reverse_sql="DROP INDEX IF EXISTS content_post_title_trgm_idx",
        ),
    ]
