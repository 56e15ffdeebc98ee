"""The pages: home and the API documentation."""

import pytest
from django.urls import reverse

from games import openapi
from games.services import KEY_DAYS


@pytest.mark.django_db
def test_home_says_what_the_app_is_and_links_to_the_api_docs(client):
    response = client.get(reverse("games:home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Keep score at a real card table" in html
    for name in ("Skat", "10-Point Pitch", "Manipulation"):
        assert name in html
    assert 'href="/en/api/"' in html
    assert "vendor/htmx/htmx.min.js" in html  # htmx from our own static files, never a CDN
    assert 'name="viewport"' in html
    assert 'name="color-scheme" content="light dark"' in html


REFEREE_PAGES = [
    "games:referee",
    "games:referee-skat-value",
    "games:referee-skat-bid",
    "games:referee-skat-trick",
    "games:referee-skat-follow",
    "games:referee-skat-ladder",
    "games:referee-pitch-trick",
    "games:referee-pitch-hand",
    "games:referee-manipulation-melds",
    "games:referee-manipulation-turn",
    "games:referee-manipulation-arrange",
    "games:rules",
]


@pytest.mark.django_db
def test_every_referee_tool_and_rule_book_is_one_tap_from_home(client):
    # Referee pages: "the pages reachable from the home page in one tap".
    html = client.get(reverse("games:home")).content.decode()
    for name in REFEREE_PAGES:
        assert f'href="{reverse(name)}"' in html, name
    for game in ("skat", "pitch", "manipulation"):
        assert f'href="{reverse("games:rules-game", args=[game])}"' in html


@pytest.mark.django_db
def test_the_referee_index_lists_every_tool(client):
    html = client.get(reverse("games:referee")).content.decode()
    for name in REFEREE_PAGES[1:]:
        assert f'href="{reverse(name)}"' in html, name


@pytest.mark.django_db
def test_pages_load_no_script_or_style_from_another_site(client):
    for url in (reverse("games:home"), reverse("games:api-docs")):
        html = client.get(url).content.decode()
        assert "http://" not in html.replace("http://testserver", "")
        assert "https://" not in html
        assert "//cdn" not in html


@pytest.mark.django_db
def test_api_docs_page_documents_every_endpoint_with_a_live_example(client):
    response = client.get(reverse("games:api-docs"))
    assert response.status_code == 200
    html = response.content.decode()
    for path in openapi.schema()["paths"]:
        assert path.replace("{", "&lt;").replace("}", "&gt;") in html or path in html
    # The examples are answered by the referee itself: the Clubs example shows its score.
    assert "&quot;game_value&quot;: 36" in html
    assert "Answer (200)" in html
    assert "Answer (4" not in html


def test_openapi_schema_is_served_and_describes_every_referee_endpoint(client):
    response = client.get(reverse("openapi"))
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.1")
    assert sorted(schema["paths"]) == sorted(
        [
            "/api/v1/sheets",
            "/api/v1/sheets/{id}",
            "/api/v1/sheets/{id}/hands",
            "/api/v1/sheets/{id}/hands/{number}",
            "/api/v1/skat/score",
            "/api/v1/skat/trick",
            "/api/v1/skat/follow",
            "/api/v1/pitch/hand",
            "/api/v1/pitch/trick",
            "/api/v1/manipulation/melds",
            "/api/v1/manipulation/turn",
            "/api/v1/manipulation/arrange",
            "/api/v1/manipulation/round",
            "/api/v1/seasons/{id}/standings",
            # Club evenings (api.md, "Club evenings"; issue 17).
            "/api/v1/evenings",
            "/api/v1/evenings/{id}",
            "/api/v1/evenings/{id}/players",
            "/api/v1/evenings/{id}/players/{player}",
            "/api/v1/evenings/{id}/money",
            "/api/v1/evenings/{id}/payments",
            "/api/v1/evenings/{id}/payments/{payment}",
            "/api/v1/evenings/{id}/series",
            "/api/v1/evenings/{id}/series/{n}/tables/{t}/result",
            # A Pitch night's rounds of minutes and level rounds (issue 21).
            "/api/v1/evenings/{id}/time",
            "/api/v1/evenings/{id}/series/{n}/tables/{t}/end",
            "/api/v1/evenings/{id}/series/{n}/tables/{t}/winner",
        ]
    )
    for endpoint in openapi.ENDPOINTS:
        operation = schema["paths"][endpoint.path]
        assert set(operation["post"]["responses"]) == {"200", "400", "405", "422"}
    # Sheet writes need the edit token; reads take either.
    assert schema["components"]["securitySchemes"]["token"]["scheme"] == "bearer"
    hands = schema["paths"]["/api/v1/sheets/{id}/hands"]["post"]
    assert {"name": "Idempotency-Key"}.items() <= hands["parameters"][1].items()


@pytest.mark.django_db
def test_openapi_schema_is_english_in_any_language_and_costs_no_query(
    client, django_assert_num_queries
):
    """The schema is the same English document whatever the request's language (its
    texts are translated on the API page, not here), written once per process."""
    english = client.get(reverse("openapi"), HTTP_ACCEPT_LANGUAGE="en")
    with django_assert_num_queries(0):
        german = client.get(reverse("openapi"), HTTP_ACCEPT_LANGUAGE="de")
    assert german["Content-Type"] == "application/json"
    assert german.content == english.content
    assert german.json()["info"]["description"].startswith("The rules of Skat")


@pytest.mark.django_db
def test_unknown_pages_get_a_friendly_404(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


@pytest.mark.parametrize(
    ("handler", "status"),
    [("bad_request", 400), ("permission_denied", 403), ("page_not_found", 404)],
)
@pytest.mark.django_db
def test_error_pages_speak_json_under_the_api(rf, handler, status):
    from games import views

    response = getattr(views, handler)(rf.get("/api/v1/skat/score"), Exception())
    assert response.status_code == status
    assert b'"errors"' in response.content
    page = getattr(views, handler)(rf.get("/somewhere"), Exception())
    assert page.status_code == status
    assert b"<html" in page.content


@pytest.mark.django_db
def test_server_error_page_reassures_the_player(rf):
    from games import views

    response = views.server_error(rf.get("/en/"))
    assert response.status_code == 500
    assert b"Nothing you entered was lost" in response.content


def test_openapi_says_how_long_an_idempotency_key_lasts_as_the_code_does(client):
    """issue 19: the OpenAPI description told API users a key lasts "within a day";
    the code keeps it services.KEY_DAYS (30) days."""
    schema = client.get(reverse("openapi")).json()
    described = [
        parameter["description"]
        for path in schema["paths"].values()
        for operation in path.values()
        for parameter in operation.get("parameters", [])
        if parameter.get("name") == "Idempotency-Key" and "description" in parameter
    ]
    assert described
    for text in described:
        assert f"within {KEY_DAYS} days" in text
        assert "a day" not in text
