"""Posts in several languages (docs/translations.md): each post has a language (existing posts:
English, the language of a company that never chose) and a translation group (existing posts:
their own id, each its own group); slugs are unique per language; the search column follows the
post's language (a CASE over regconfig constants: a generated column needs an immutable
expression). For an English post the column holds what it held before."""
import uuid

from django.db import migrations, models
import django.contrib.postgres.search

import apps.content.models
from apps.core.sharding import sql_statements  # one statement at a time (Citus refuses several)

CONFIGS = {
    "ar": "arabic", "hy": "armenian", "eu": "basque", "ca": "catalan", "da": "danish", "nl": "dutch",
    "en": "english", "fi": "finnish", "fr": "french", "de": "german", "el": "greek", "hi": "hindi",
    "hu": "hungarian", "id": "indonesian", "ga": "irish", "it": "italian", "lt": "lithuanian", "ne": "nepali",
    "nb": "norwegian", "nn": "norwegian", "no": "norwegian", "pt": "portuguese", "ro": "romanian",
    "ru": "russian", "sr": "serbian", "es": "spanish", "sv": "swedish", "ta": "tamil", "tr": "turkish",
    "yi": "yiddish",
}
CONFIG = ("CASE split_part(\"language\", '-', 1) "
          + " ".join(f"WHEN '{code}' THEN '{config}'::regconfig" for code, config in CONFIGS.items())
          + " ELSE 'simple'::regconfig END")
NEW_COLUMN = (
    "ALTER TABLE content_post DROP COLUMN search_vector; "
    "ALTER TABLE content_post ADD COLUMN search_vector tsvector GENERATED ALWAYS AS ("
    f"setweight(to_tsvector({CONFIG}, COALESCE(\"title\", '')), 'A') || "
    f"setweight(to_tsvector({CONFIG}, COALESCE(\"content\", '')), 'B')) STORED; "
    "CREATE INDEX content_post_search_idx ON content_post USING gin (search_vector);"
)
OLD_COLUMN = (
    "ALTER TABLE content_post DROP COLUMN search_vector; "
    "ALTER TABLE content_post ADD COLUMN search_vector tsvector GENERATED ALWAYS AS ("
    "setweight(to_tsvector('english'::regconfig, COALESCE(\"title\", '')), 'A') || "
    "setweight(to_tsvector('english'::regconfig, COALESCE(\"content\", '')), 'B')) STORED; "
    "CREATE INDEX content_post_search_idx ON content_post USING gin (search_vector);"
)


class Migration(migrations.Migration):

    dependencies = [
        ('content', '0008_counts_from_arrays'),
    ]

    operations = [
        migrations.AddField(
            model_name='post',
            name='language',
            field=models.CharField(default='en', max_length=35),
        ),
        migrations.AddField(
            model_name='post',
            name='translation_group',
            field=models.UUIDField(null=True),
        ),
        migrations.RunSQL("UPDATE content_post SET translation_group = id", migrations.RunSQL.noop),
        migrations.AlterField(
            model_name='post',
            name='translation_group',
            field=models.UUIDField(default=uuid.uuid4),
        ),
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(sql_statements(NEW_COLUMN), sql_statements(OLD_COLUMN))],
            state_operations=[migrations.AlterField(
                model_name='post',
                name='search_vector',
                field=models.GeneratedField(db_persist=True, expression=django.contrib.postgres.search.CombinedSearchVector(django.contrib.postgres.search.SearchVector('title', config=apps.content.models.LanguageSearchConfig('language'), weight='A'), '||', django.contrib.postgres.search.SearchVector('content', config=apps.content.models.LanguageSearchConfig('language'), weight='B'), django.contrib.postgres.search.SearchConfig(apps.content.models.LanguageSearchConfig('language'))), output_field=django.contrib.postgres.search.SearchVectorField()),
            )],
        ),
        migrations.AddConstraint(
            model_name='post',
            constraint=models.UniqueConstraint(fields=('slug', 'language'), name='content_post_slug_language_uniq'),
        ),
        migrations.AlterField(
            model_name='post',
            name='slug',
            field=models.CharField(max_length=255),
        ),
        migrations.AddIndex(
            model_name='post',
            index=models.Index(fields=['language', 'status', '-created_at'], name='content_post_language_idx'),
        ),
        migrations.AddConstraint(
            model_name='post',
            constraint=models.UniqueConstraint(fields=('translation_group', 'language'), name='content_post_group_language_uniq'),
        ),
        # Rows written by SQL (imports, benchmarks) get what the ORM gives: English, a group of their own.
        migrations.RunSQL("ALTER TABLE content_post ALTER COLUMN language SET DEFAULT 'en', ALTER COLUMN translation_group SET DEFAULT gen_random_uuid()",
                          "ALTER TABLE content_post ALTER COLUMN language DROP DEFAULT, ALTER COLUMN translation_group DROP DEFAULT"),
    ]
