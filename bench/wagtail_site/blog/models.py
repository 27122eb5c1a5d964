"""The blog of Wagtail's tutorial ("Your first Wagtail site"): a blog index, its posts with a date,
an intro, a rich-text body, tags (ClusterTaggableManager) and categories (a snippet), the posts
searchable by their intro and body; the posts' fields exposed to the API (wagtail.api.v2) as the
API's documentation does it. The category carries a slug beside its name, as the product's do."""
from django.db import models
from modelcluster.contrib.taggit import ClusterTaggableManager
from modelcluster.fields import ParentalKey, ParentalManyToManyField
from rest_framework import serializers
from taggit.models import TaggedItemBase
from wagtail.api import APIField
from wagtail.fields import RichTextField
from wagtail.models import Page
from wagtail.search import index
from wagtail.snippets.models import register_snippet


class BlogIndexPage(Page):
    intro = RichTextField(blank=True)

    content_panels = Page.content_panels + ["intro"]


class BlogPageTag(TaggedItemBase):
    content_object = ParentalKey("BlogPage", related_name="tagged_items", on_delete=models.CASCADE)


@register_snippet
class BlogCategory(models.Model):
    name = models.CharField(max_length=255)
    slug = models.SlugField(max_length=80, unique=True)

    panels = ["name", "slug"]

    class Meta:
        verbose_name_plural = "blog categories"

    def __str__(self):
        return self.name


class BlogCategorySerializer(serializers.ModelSerializer):
    """A post's categories in the API: their name and slug (the API's default for a many-to-many
    field would be their ids alone)."""

    class Meta:
        model = BlogCategory
        fields = ["id", "name", "slug"]


class BlogPage(Page):
    date = models.DateField("Post date")
    intro = models.CharField(max_length=250)
    body = RichTextField(blank=True)
    tags = ClusterTaggableManager(through=BlogPageTag, blank=True)
    categories = ParentalManyToManyField("blog.BlogCategory", blank=True)

    search_fields = Page.search_fields + [
        index.SearchField("intro"),
        index.SearchField("body"),
    ]

    content_panels = Page.content_panels + ["date", "intro", "body", "tags", "categories"]

    api_fields = [
        APIField("date"),
        APIField("intro"),
        APIField("body"),
        APIField("tags"),
        APIField("categories", serializer=BlogCategorySerializer(many=True)),
    ]
