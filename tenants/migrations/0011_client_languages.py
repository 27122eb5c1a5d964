from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tenants', '0010_fill_account_directory'),
    ]

    operations = [
        migrations.AddField(
            model_name='client',
            name='languages',
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name='client',
            name='default_language',
            field=models.CharField(default='en', max_length=35),
        ),
        migrations.AddField(
            model_name='client',
            name='language_fallbacks',
            field=models.JSONField(default=dict),
        ),
    ]
