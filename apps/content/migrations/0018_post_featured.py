# Posts and pages may be featured (docs/content.md): a boolean, false for every existing row, and
# two small partial indexes of the featured rows (the public lists' order and Ghost's).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('content', '0017_autosave_kind'),
    ]

    operations = [
        migrations.AddField(
            model_name='post',
            name='featured',
            field=models.BooleanField(db_default=False, default=False),
        ),
        migrations.AddIndex(
            model_name='post',
            index=models.Index(condition=models.Q(('featured', True)), fields=['kind', 'status', '-created_at', '-id'], name='content_post_featured_idx'),
        ),
        migrations.AddIndex(
            model_name='post',
            index=models.Index(condition=models.Q(('featured', True)), fields=['kind', 'status', '-published_at', '-id'], name='content_post_featured_pub_idx'),
        ),
    ]
