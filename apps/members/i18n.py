"""The words of the members' pages (confirmation, preferences, unsubscribe) and of the text around a
post in its newsletter email (the `email_*` keys, apps.newsletters.rendering), in the company's
default language when it is one of these, else in English; a key missing in a language is
English too. `words(language)` gives the table for a BCP 47 code (fr-CA reads fr); `words_of` the
table of the first of several languages that has one."""
from __future__ import annotations

EN = {
    "confirmed_title": "You're subscribed",
    "confirmed_body": "Thanks for confirming, {email}.",
    "already_title": "Already confirmed",
    "already_body": "This link has been used already: your subscription is confirmed.",
    "invalid_title": "This link is not valid",
    "invalid_body": "It may have expired or been changed. Ask the website for a new one.",
    "gone_title": "Subscription not found",
    "gone_body": "This subscription no longer exists.",
    "preferences_title": "Your email preferences",
    "preferences_intro": "Choose the newsletters sent to {email}.",
    "save": "Save preferences",
    "saved": "Your preferences are saved.",
    "unsubscribe_all": "Unsubscribe from all",
    "unsubscribed_title": "You're unsubscribed",
    "unsubscribed_body": "{email} will no longer receive these emails.",
    "manage": "Manage your preferences",
    "none": "There are no newsletters to choose from.",
    "subscribed_none": "{email} is not subscribed to any newsletter.",
    "disabled": "Emails to this address are paused because it could not be delivered to.",
    "email_read_on_website": "Read on the website",
    "email_reason": "You receive {newsletter} because you subscribed to {site}.",
    "email_unsubscribe": "Unsubscribe",
}

FR = {
    "confirmed_title": "Vous êtes abonné",
    "confirmed_body": "Merci d'avoir confirmé, {email}.",
    "already_title": "Déjà confirmé",
    "already_body": "Ce lien a déjà été utilisé : votre abonnement est confirmé.",
    "invalid_title": "Ce lien n'est pas valide",
    "invalid_body": "Il a peut-être expiré ou été modifié. Demandez-en un nouveau sur le site.",
    "gone_title": "Abonnement introuvable",
    "gone_body": "Cet abonnement n'existe plus.",
    "preferences_title": "Vos préférences d'e-mail",
    "preferences_intro": "Choisissez les newsletters envoyées à {email}.",
    "save": "Enregistrer",
    "saved": "Vos préférences sont enregistrées.",
    "unsubscribe_all": "Se désabonner de tout",
    "unsubscribed_title": "Vous êtes désabonné",
    "unsubscribed_body": "{email} ne recevra plus ces e-mails.",
    "manage": "Gérer vos préférences",
    "none": "Aucune newsletter à choisir.",
    "subscribed_none": "{email} n'est abonné à aucune newsletter.",
    "disabled": "Les e-mails vers cette adresse sont suspendus : ils n'ont pas pu être remis.",
    "email_read_on_website": "Lire sur le site",
    "email_reason": "Vous recevez {newsletter} parce que vous êtes abonné à {site}.",
    "email_unsubscribe": "Se désabonner",
}

DE = {
    "confirmed_title": "Sie sind angemeldet",
    "confirmed_body": "Danke für Ihre Bestätigung, {email}.",
    "already_title": "Bereits bestätigt",
    "already_body": "Dieser Link wurde bereits verwendet: Ihr Abonnement ist bestätigt.",
    "invalid_title": "Dieser Link ist ungültig",
    "invalid_body": "Er ist vielleicht abgelaufen oder wurde verändert. Fordern Sie auf der Website einen neuen an.",
    "gone_title": "Abonnement nicht gefunden",
    "gone_body": "Dieses Abonnement besteht nicht mehr.",
    "preferences_title": "Ihre E-Mail-Einstellungen",
    "preferences_intro": "Wählen Sie die Newsletter, die an {email} gesendet werden.",
    "save": "Einstellungen speichern",
    "saved": "Ihre Einstellungen sind gespeichert.",
    "unsubscribe_all": "Von allem abmelden",
    "unsubscribed_title": "Sie sind abgemeldet",
    "unsubscribed_body": "{email} erhält diese E-Mails nicht mehr.",
    "manage": "Einstellungen verwalten",
    "none": "Es gibt keine Newsletter zur Auswahl.",
    "subscribed_none": "{email} hat keinen Newsletter abonniert.",
    "disabled": "E-Mails an diese Adresse sind pausiert, weil sie nicht zugestellt werden konnten.",
    "email_read_on_website": "Auf der Website lesen",
    "email_reason": "Sie erhalten {newsletter}, weil Sie {site} abonniert haben.",
    "email_unsubscribe": "Abmelden",
}

ES = {
    "confirmed_title": "Te has suscrito",
    "confirmed_body": "Gracias por confirmar, {email}.",
    "already_title": "Ya confirmado",
    "already_body": "Este enlace ya se ha usado: tu suscripción está confirmada.",
    "invalid_title": "Este enlace no es válido",
    "invalid_body": "Puede que haya caducado o se haya modificado. Pide uno nuevo en el sitio web.",
    "gone_title": "Suscripción no encontrada",
    "gone_body": "Esta suscripción ya no existe.",
    "preferences_title": "Tus preferencias de correo",
    "preferences_intro": "Elige los boletines que se envían a {email}.",
    "save": "Guardar preferencias",
    "saved": "Tus preferencias se han guardado.",
    "unsubscribe_all": "Darme de baja de todo",
    "unsubscribed_title": "Te has dado de baja",
    "unsubscribed_body": "{email} ya no recibirá estos correos.",
    "manage": "Gestionar tus preferencias",
    "none": "No hay boletines para elegir.",
    "subscribed_none": "{email} no está suscrito a ningún boletín.",
    "disabled": "Los correos a esta dirección están en pausa porque no se pudieron entregar.",
    "email_read_on_website": "Leer en el sitio web",
    "email_reason": "Recibes {newsletter} porque te suscribiste a {site}.",
    "email_unsubscribe": "Darse de baja",
}

LANGUAGES = {"en": EN, "fr": FR, "de": DE, "es": ES}


def _table(language: str | None) -> str | None:
    code = (language or "").strip()
    return next((candidate for candidate in (code, code.split("-")[0].lower()) if candidate in LANGUAGES), None)


def words(language: str | None) -> tuple[str, dict]:
    """(the language used, its words with English for anything it lacks)."""
    return words_of(language)


def words_of(*languages: str | None) -> tuple[str, dict]:
    """words() of the first of `languages` that has a table (else English)."""
    found = next((code for code in map(_table, languages) if code), "en")
    return found, {**EN, **LANGUAGES[found]}
