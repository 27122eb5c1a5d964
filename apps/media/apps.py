from django.apps import AppConfig


class MediaConfig(AppConfig):
    name = "apps.media"
    label = "media"

    def ready(self) -> None:
        from django.conf import settings
        from PIL import Image

        # Pillow's own decompression-bomb guard follows our pixel limit (it refuses outright
        # above twice the value); uploads are checked against MEDIA_MAX_PIXELS before that.
        Image.MAX_IMAGE_PIXELS = settings.MEDIA_MAX_PIXELS
