from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tenants', '0012_template_statements'),
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
        # Rows written by SQL get what the ORM gives: English only.
        migrations.RunSQL("ALTER TABLE tenants_client ALTER COLUMN languages SET DEFAULT '[]'::jsonb, ALTER COLUMN default_language SET DEFAULT 'en', ALTER COLUMN language_fallbacks SET DEFAULT '{}'::jsonb",
                          "ALTER TABLE tenants_client ALTER COLUMN languages DROP DEFAULT, ALTER COLUMN default_language DROP DEFAULT, ALTER COLUMN language_fallbacks DROP DEFAULT"),
    ]
