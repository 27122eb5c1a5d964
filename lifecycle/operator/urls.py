"""/operator/ on the root domain (config.urls_public)."""
from django.urls import path

from lifecycle.operator import views

urlpatterns = [
    path("", views.company_list, name="operator-companies"),
    path("login", views.sign_in, name="operator-login"),
    path("code", views.code, name="operator-code"),
    path("logout", views.sign_out, name="operator-logout"),
    path("account", views.account, name="operator-account"),
    path("audit", views.audit, name="operator-audit"),
    path("companies/<str:subdomain>", views.company_detail, name="operator-company"),
    path("companies/<str:subdomain>/backups/<str:backup_id>", views.backup_download, name="operator-backup"),
    path("companies/<str:subdomain>/sign-in-as/<str:user_id>", views.support_sign_in, name="operator-sign-in-as"),
    path("companies/<str:subdomain>/<str:action>", views.company_action, name="operator-company-action"),
]
