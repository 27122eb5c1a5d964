# Members-only posts (docs/content.md#members-only-posts): who reads a post's body. Every row that
# existed is public (the column's database default); only `public` and `members` can be stored.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('content', '0018_post_featured'),
    ]

    operations = [
        migrations.AddField(
            model_name='post',
            name='visibility',
            field=models.CharField(choices=[('public', 'Everyone'), ('members', 'Members only')], db_default='public', default='public', max_length=8),
        ),
        migrations.AddConstraint(
            model_name='post',
            constraint=models.CheckConstraint(condition=models.Q(('visibility', 'public'), ('visibility', 'members'), _connector='OR'), name='content_post_visibility_valid'),
        ),
    ]
