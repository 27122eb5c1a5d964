# A new page's unsaved copy is kept apart from a new post's (one per user and kind).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0004_support_access'),
        ('content', '0016_post_kind'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='postautosave',
            name='content_autosave_new_post_uniq',
        ),
        migrations.AddField(
            model_name='postautosave',
            name='kind',
            field=models.CharField(db_default='post', default='post', max_length=8),
        ),
        migrations.AddConstraint(
            model_name='postautosave',
            constraint=models.UniqueConstraint(condition=models.Q(('post__isnull', True)), fields=('user', 'kind'), name='content_autosave_new_post_uniq'),
        ),
    ]
