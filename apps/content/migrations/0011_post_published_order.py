# The Ghost-compatible browse's default order (published_at, then id) read from the index.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('content', '0010_term_translations'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='post',
            name='content_post_published_idx',
        ),
        migrations.AddIndex(
            model_name='post',
            index=models.Index(fields=['status', '-published_at', '-id'], name='content_post_published_idx'),
        ),
    ]
