"""A season's standings cost the same few queries whatever the number of sheets.

The seasons come from ``circles/season_factory.py``: finished sheets whose stored
contributions are real (sheets played through the engines), bulk-created.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from circles import selectors, standings_cache
from circles.season_factory import build_season

pytestmark = pytest.mark.django_db

# circles.selectors.season_standings:
#   1. the circle's players (names, guests);
#   2. every counted seat result of the season, with its sheet's game and day (one join);
#   3. the latest standings changes of the season (at most 20);
#   4. the count of the season's open sheets.
SELECTOR_QUERIES = 4
# The standings page as a signed-in member: the session and its user (2), the circle
# (circles.views._circle) and the visitor's membership (circles.permissions) (2), the
# season (1) and the four of season_standings (4).
PAGE_QUERIES = 9
# The API with the season's view token: the season with its circle (one join), then the
# four of season_standings; a token holder is not a member, so no membership is read.
API_QUERIES = 5
# The API read right after the page, at the same standings version: the season alone.
# The season's tables were added up once for both (selectors.kept_season_standings).
API_AFTER_PAGE_QUERIES = 1

SIZES = (3, 30)


def standings_queries(season) -> tuple[int, selectors.SeasonStandings]:
    with CaptureQueriesContext(connection) as queries:
        standings = selectors.season_standings(season)
    return len(queries), standings


def page_queries(season, user) -> tuple[int, bytes]:
    standings_cache.forget()  # as a worker that has not read this season yet
    client = Client()
    client.force_login(user)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(season.get_absolute_url())
    assert response.status_code == 200
    return len(queries), response.content


def api_queries(season, *, fresh: bool = True) -> tuple[int, dict]:
    if fresh:
        standings_cache.forget()
    with CaptureQueriesContext(connection) as queries:
        response = Client().get(
            f"/api/v1/seasons/{season.pk}/standings",
            HTTP_AUTHORIZATION=f"Bearer {season.view_token}",
        )
    assert response.status_code == 200
    return len(queries), response.json()


def test_the_same_queries_for_3_and_for_30_sheets():
    counted = {}
    for size in SIZES:
        season, user = build_season(size, seed=size)
        selector, standings = standings_queries(season)
        page, content = page_queries(season, user)
        api, body = api_queries(season)
        # Not an empty season: every sheet counts, every game has its table.
        assert standings.counted_sheets == size
        assert standings.open_sheets == 1
        assert len(standings.changes) == (size + 9) // 10
        assert list(standings.tables) == ["skat", "pitch", "manipulation"]
        # (With 3 sheets nobody has the Skat season's 3 series yet: listed apart.)
        assert all(
            [*table.ranked, *getattr(table, "unranked", ())] for table in standings.tables.values()
        )
        assert body["counted_sheets"] == size
        assert list(body["standings"]) == ["skat", "pitch", "manipulation"]
        assert b"Ana" in content
        # Read again after the page, at the same version: the page's sums serve the API.
        page_queries(season, user)
        after_page, again = api_queries(season, fresh=False)
        assert again == body
        counted[size] = (selector, page, api, after_page)
    assert (
        counted[3]
        == counted[30]
        == (SELECTOR_QUERIES, PAGE_QUERIES, API_QUERIES, API_AFTER_PAGE_QUERIES)
    )


@pytest.mark.parametrize("size", SIZES)
def test_exact_query_counts(size, django_assert_num_queries):
    season, user = build_season(size, seed=size)
    with django_assert_num_queries(SELECTOR_QUERIES):
        selectors.season_standings(season)
    client = Client()
    client.force_login(user)
    standings_cache.forget()
    with django_assert_num_queries(PAGE_QUERIES):
        assert client.get(season.get_absolute_url()).status_code == 200
    standings_cache.forget()
    with django_assert_num_queries(API_QUERIES):
        response = Client().get(
            f"/api/v1/seasons/{season.pk}/standings",
            HTTP_AUTHORIZATION=f"Bearer {season.view_token}",
        )
    assert response.status_code == 200
