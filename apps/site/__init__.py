"""The site around the posts (docs/company-settings.md#site-settings): a company's site settings
(title, description, images, accent color, social accounts, navigation) and the rules of the
author profiles' public fields.

- `rules`: every rule of a value (a color, a navigation, a social account, an image reference),
  once, for the dashboard's schemas, the author profile and the importer;
- `selectors`: the settings as the public API, the Ghost-compatible API and the dashboard read
  them (images as absolute addresses);
- `services`: their writes (an admin's, an import's), each told as a CompanyChanged event.

The settings are stored beside the company's other settings, in the public schema
(tenants.models.SiteSettings, one row per company); this package has no models of its own and is
not an installed app. It is below the lifecycle (which serves the dashboard's route): apps may
import it.
"""
