# Lists along a fallback chain read the indexes alone: the status list index carries the language and group, the group index the status.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0004_support_access'),
        ('content', '0011_post_published_order'),
        ('media', '0002_media_alt_texts'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='post',
            name='content_post_group_language_uniq',
        ),
        migrations.RemoveIndex(
            model_name='post',
            name='content_post_status_idx',
        ),
        migrations.RemoveIndex(
            model_name='post',
            name='content_post_language_idx',
        ),
        migrations.AddIndex(
            model_name='post',
            index=models.Index(fields=['status', '-created_at', '-id'], include=('language', 'translation_group'), name='content_post_status_idx'),
        ),
        migrations.AddIndex(
            model_name='post',
            index=models.Index(fields=['language', 'status', '-created_at', '-id'], name='content_post_language_idx'),
        ),
        migrations.AddConstraint(
            model_name='post',
            constraint=models.UniqueConstraint(fields=('translation_group', 'language'), include=('status',), name='content_post_group_language_uniq'),
        ),
    ]
