import base64
import hashlib
import re

from django.test import Client as HttpClient

from apps.core.testing import Api


def test_api_responses_carry_the_security_headers_and_no_cookie(api, anon):
    for response in (api.get("/api/auth/me"), anon.get("/api/auth/me"), api.get("/api/nothing")):
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Referrer-Policy"] == "strict-origin-when-cross-origin"
        assert response["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
        assert "default-src 'none'" in response["Content-Security-Policy"]
        assert not response.cookies


def test_dashboard_csp_allows_exactly_its_inline_config_script(tenant):
    page = HttpClient(HTTP_HOST=f"{tenant.subdomain}.testserver.local").get("/dashboard")
    policy = page["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    scripts = re.findall(rb"<script>(.*?)</script>", page.content, re.S)
    assert len(scripts) == 1
    expected = "'sha256-%s'" % base64.b64encode(hashlib.sha256(scripts[0]).digest()).decode()
    script_src = next(part for part in policy.split("; ") if part.startswith("script-src"))
    assert script_src == f"script-src 'self' {expected}"
    assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src
    assert page["X-Content-Type-Options"] == "nosniff"
    assert not page.cookies


def test_root_domain_and_unknown_hosts_too(db):
    for host in ("testserver.local", "nobody.testserver.local"):
        response = HttpClient(HTTP_HOST=host).get("/register")
        assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
        assert response["X-Frame-Options"] == "DENY"


def test_local_media_files_are_served_with_nosniff(tenant, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    (tmp_path / tenant.schema_name).mkdir()
    (tmp_path / tenant.schema_name / "probe.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    response = Api(tenant).get(f"/media/{tenant.schema_name}/probe.png")
    assert response.status_code == 200
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'none'" in response["Content-Security-Policy"]


def test_a_company_host_never_serves_another_companys_files(tenant, other_tenant, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    (tmp_path / other_tenant.schema_name).mkdir()
    (tmp_path / other_tenant.schema_name / "secret.png").write_bytes(b"\x89PNG\r\n\x1a\nother")
    assert Api(tenant).get(f"/media/{other_tenant.schema_name}/secret.png").status_code == 404
    assert Api(other_tenant).get(f"/media/{other_tenant.schema_name}/secret.png").status_code == 200
    assert Api(tenant).get(f"/media/{tenant.schema_name}/../{other_tenant.schema_name}/secret.png").status_code == 404


def test_the_dashboard_frames_exactly_the_embeds_the_sanitiser_keeps(tenant):
    """An imported post's Vimeo, SoundCloud, Spotify or X embed, and its audio from another host,
    show in the editor: the policy frames the sanitiser's embed origins and no other."""
    policy = HttpClient(HTTP_HOST=f"{tenant.subdomain}.testserver.local").get("/dashboard")["Content-Security-Policy"]
    directives = {part.split()[0]: part.split()[1:] for part in policy.split("; ")}
    assert set(directives["frame-src"]) == {
        "https://www.youtube.com", "https://www.youtube-nocookie.com", "https://player.vimeo.com",
        "https://w.soundcloud.com", "https://open.spotify.com", "https://platform.twitter.com", "https://platform.x.com"}
    assert "https:" in directives["media-src"] and "'unsafe-inline'" not in directives["script-src"]
