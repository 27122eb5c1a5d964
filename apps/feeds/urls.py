from django.urls import path, re_path

from apps.feeds import views

LOCALE = r"(?P<locale>[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)"  # a BCP 47 code's shape; the company's decide

urlpatterns = [
    path("feeds/rss.xml", views.rss),
    path("feeds/atom.xml", views.atom),
    # a language's feeds (docs/translations.md), e.g. /feeds/fr/rss.xml, /feeds/pt-BR/atom.xml
    re_path(rf"^feeds/{LOCALE}/rss\.xml$", views.rss),
    re_path(rf"^feeds/{LOCALE}/atom\.xml$", views.atom),
    re_path(r"^feeds/(?P<kind>category|tag)/(?P<slug>[^/]+)/rss\.xml$", views.rss),
    re_path(r"^feeds/(?P<kind>category|tag)/(?P<slug>[^/]+)/atom\.xml$", views.atom),
    # a language's feeds of a category or tag, found by its slug in that language or its own:
    # /feeds/fr/category/actualites/rss.xml
    re_path(rf"^feeds/{LOCALE}/(?P<kind>category|tag)/(?P<slug>[^/]+)/rss\.xml$", views.rss),
    re_path(rf"^feeds/{LOCALE}/(?P<kind>category|tag)/(?P<slug>[^/]+)/atom\.xml$", views.atom),
    path("sitemap.xml", views.sitemap),
    path("sitemap-<int:number>.xml", views.sitemap),
    path("robots.txt", views.robots),
]
