from django.db import migrations

from apps.content.rules import clean_canonical_url

# Posts written before every writer applied the editor's rules (apps.content.rules) may hold a
# canonical URL the editor refuses (an import kept `javascript:...`): such a value is cleared.


def clear_refused_canonical_urls(apps, schema_editor):
    Post = apps.get_model("content", "Post")
    refused = []
    for pk, value in Post.objects.exclude(canonical_url="").values_list("pk", "canonical_url").iterator():
        try:
            clean_canonical_url(value)
        except ValueError:
            refused.append(pk)
    if refused:
        Post.objects.filter(pk__in=refused).update(canonical_url="")


class Migration(migrations.Migration):
    dependencies = [("content", "0014_post_listing")]

    operations = [migrations.RunPython(clear_refused_canonical_urls, migrations.RunPython.noop)]
