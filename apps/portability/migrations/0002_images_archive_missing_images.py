from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):

    dependencies = [
        ("content", "0001_initial"),
        ("portability", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="importjob",
            name="images_key",
            field=models.CharField(blank=True, default="", max_length=500),
        ),
        migrations.AddField(
            model_name="importjob",
            name="images_name",
            field=models.CharField(blank=True, default="", max_length=255),
        ),
        migrations.CreateModel(
            name="MissingImage",
            fields=[
                ("id", models.BigAutoField(primary_key=True, serialize=False)),
                ("url", models.CharField(max_length=2000)),
                ("role", models.CharField(choices=[("content", "In the content"), ("featured_image", "Featured image"),
                                                   ("og_image", "Open Graph image"), ("twitter_image", "Twitter image")],
                                          default="content", max_length=16)),
                ("alt_text", models.CharField(blank=True, default="", max_length=500)),
                ("reason", models.CharField(blank=True, default="", max_length=500)),
                ("attempts", models.PositiveIntegerField(default=1)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                ("job", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                          related_name="missing_images", to="portability.importjob")),
                ("post", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+",
                                           to="content.post")),
            ],
            options={"ordering": ("post_id", "id")},
        ),
        migrations.AddConstraint(
            model_name="missingimage",
            constraint=models.UniqueConstraint(fields=("post", "role", "url"), name="portability_missing_uniq"),
        ),
    ]
