"""The write services of the score sheets: create, record, correct, remove, restore, preview.

Every service replays the whole sheet through the rules, so the numbers below are
the rules' numbers; the comment next to each case names the rule.
"""

from __future__ import annotations

from unittest import mock

import pytest

from games import services
from games.models import Hand, IdempotencyKey, Seat, Sheet, SheetEvent
from games.rules.errors import RuleError
from games.selectors import live_hands, seat_names, sheet_state

pytestmark = pytest.mark.django_db

THREE = ["Ana", "Ben", "Cem"]
FOUR = ["Ana", "Ben", "Cem", "Dan"]


def penalties(*points: int) -> dict:
    return {"penalties": list(points)}


def pitch_points(**taken: str) -> dict[str, str]:
    return {
        key: taken.get(key, "out")
        for key in ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")
    }


# Team A takes ace, jack, off-jack and both jokers (5); team B ten, two, three (5).
A_MAKES_4 = {
    "pitcher": 0,
    "bid": 4,
    "points": pitch_points(
        ace="A", jack="A", off_jack="A", high_joker="A", low_joker="A", ten="B", two="B", three="B"
    ),
}
A_MOON = {
    "pitcher": 2,
    "bid": "moon",
    "points": pitch_points(
        ace="A", jack="A", off_jack="A", high_joker="A", low_joker="A", ten="A", two="A", three="A"
    ),
}


def manipulation_sheet(**options) -> Sheet:
    return services.sheet_create(game="manipulation", players=THREE, options=options or None)


def pitch_sheet() -> Sheet:
    return services.sheet_create(game="pitch", players=FOUR)


def with_deals(sheet: Sheet, *deals: dict) -> Sheet:
    for deal in deals:
        services.hand_record(sheet=sheet, data=deal)
    sheet.refresh_from_db()
    return sheet


def entries(sheet: Sheet) -> list[dict]:
    return [h.entry for h in live_hands(sheet)]


def totals(sheet: Sheet) -> tuple[int, ...]:
    return sheet_state(Sheet.objects.get(pk=sheet.pk)).totals


def problems(error: pytest.ExceptionInfo[RuleError]) -> list[tuple[str | None, str]]:
    return [(p.field, p.message) for p in error.value.problems]


def version(sheet: Sheet) -> int:
    return Sheet.objects.get(pk=sheet.pk).version


# -- sheet_create ------------------------------------------------------------------------


def test_sheet_create_seats_the_players_in_order_and_stores_every_option():
    sheet = services.sheet_create(
        game="skat",
        players=["  Ana   Lee ", "Ben", "Cem"],
        first_dealer=2,
        options={"kontra_re": True},
    )
    assert sheet.game == "skat"
    assert sheet.first_dealer == 2
    # Spaces inside and around a name are tidied; the seat order is kept.
    assert seat_names(Sheet.objects.get(pk=sheet.pk)) == ("Ana Lee", "Ben", "Cem")
    assert list(Seat.objects.filter(sheet=sheet).values_list("position", flat=True)) == [0, 1, 2]
    assert sheet.options == {
        "kontra_re": True,
        "bock": {
            "sixty_all": False,
            "lost_after_kontra": False,
            "hundred_or_more": False,
            "grand_hand_won": False,
        },
        "all_pass": "throw_in",
        "ramsch_tie": "all_tied_lose",
        "series_deals": None,
    }
    assert sheet.version == 0
    assert sheet.edit_token != sheet.view_token


def test_a_name_belongs_to_its_sheet_alone():
    # Typing "ANA" on a new sheet must not change how "Ana" is shown on anybody
    # else's sheet: names of anonymous sheets are the sheet's own.
    first = services.sheet_create(game="manipulation", players=["Ana", "Ben", "Cem"])
    second = services.sheet_create(game="manipulation", players=["ANA", "ben", "Dan"])
    assert list(first.seats.values_list("name", flat=True)) == ["Ana", "Ben", "Cem"]
    assert list(second.seats.values_list("name", flat=True)) == ["ANA", "ben", "Dan"]


def test_sheet_create_keeps_the_derived_counts():
    sheet = services.sheet_create(game="manipulation", players=["Ana", "Ben", "Cem"])
    assert (sheet.deal_count, sheet.finished) == (0, False)


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        pytest.param(
            {"game": "chess", "players": THREE},
            [("game", "Choose a game: skat, pitch, manipulation.")],
            id="unknown-game",
        ),
        pytest.param(
            {"game": None, "players": THREE},
            [("game", "Choose a game: skat, pitch, manipulation.")],
            id="game-not-text",
        ),
        pytest.param(
            {"game": "pitch", "players": ("Ana", "Ben", "Cem", "Dan")},
            [("players", "Give the players as a list of names in seat order.")],
            id="players-not-a-list",
        ),
        pytest.param(
            {"game": "pitch", "players": ["Ana", 7, "Cem", "Dan"]},
            [("players.1", "Seat 2 needs a name.")],
            id="a-name-that-is-not-text",
        ),
        pytest.param(
            {"game": "skat", "players": ["Ana", "ANA", "ana"]},
            [
                ("players.1", "ANA is already at the table; give each seat its own name."),
                ("players.2", "ana is already at the table; give each seat its own name."),
            ],
            id="the-same-name-three-times",
        ),
        pytest.param(
            {"game": "skat", "players": THREE, "first_dealer": "0"},
            [("first_dealer", "Say who deals first by seat: 0 for the first seat.")],
            id="first-dealer-as-text",
        ),
        pytest.param(
            {"game": "skat", "players": THREE, "first_dealer": -1},
            [("first_dealer", "The first dealer must be one of the 3 seats.")],
            id="first-dealer-negative",
        ),
        pytest.param(
            {"game": "manipulation", "players": THREE, "options": ["target", 300]},
            [("options", 'Give the options as an object, like {"target": 300}.')],
            id="options-not-an-object",
        ),
        pytest.param(
            # Every problem at once: too few players, the first dealer and an option.
            {
                "game": "pitch",
                "players": THREE,
                "first_dealer": 3,
                "options": {"two_goes_to": "nobody"},
            },
            [
                ("players", "10-Point Pitch is played by 4 players; you gave 3."),
                ("first_dealer", "The first dealer must be one of the 3 seats."),
                ("options.two_goes_to", None),
            ],
            id="several-at-once",
        ),
    ],
)
def test_sheet_create_reports_every_problem_and_creates_nothing(arguments, expected):
    with pytest.raises(RuleError) as error:
        services.sheet_create(**arguments)
    found = problems(error)
    assert [field for field, _ in found] == [field for field, _ in expected]
    for (_, message), (_, wanted) in zip(found, expected, strict=True):
        if wanted is not None:
            assert message == wanted
    assert Sheet.objects.count() == 0
    assert Seat.objects.count() == 0


# -- hand_record ---------------------------------------------------------------------------


def test_hand_record_stores_the_entry_as_given_and_returns_the_new_state():
    sheet = manipulation_sheet()
    outcome = services.hand_record(sheet=sheet, data=penalties(0, 25, 40))
    assert outcome.hand.number == 1
    assert outcome.hand.entry == penalties(0, 25, 40)
    assert outcome.state.totals == (0, 25, 40)
    outcome = services.hand_record(sheet=sheet, data=penalties(10, 0, 30))
    assert outcome.hand.number == 2
    # Totals: penalties add up round after round.
    assert outcome.state.totals == (10, 25, 70)
    assert entries(sheet) == [penalties(0, 25, 40), penalties(10, 0, 30)]
    assert version(sheet) == 2  # every write bumps the version the pages poll


def test_hand_record_that_breaks_a_rule_stores_nothing():
    sheet = with_deals(manipulation_sheet(), penalties(0, 25, 40))
    with pytest.raises(RuleError) as error:
        services.hand_record(sheet=sheet, data=penalties(0, 0, 30))
    # Only one player can go out in a round.
    assert [field for field, _ in problems(error)] == ["penalties"]
    assert entries(sheet) == [penalties(0, 25, 40)]
    assert version(sheet) == 1


def test_hand_record_after_the_end_is_refused_in_plain_words():
    # Manipulation ends once someone reaches 200; the lowest total wins.
    sheet = with_deals(manipulation_sheet(), penalties(0, 200, 5))
    with pytest.raises(RuleError) as error:
        services.hand_record(sheet=sheet, data=penalties(0, 5, 5))
    assert problems(error) == [
        (
            None,
            "The game is over: Ben reached 200 and Ana won with 0. Start a new sheet for "
            "another game.",
        )
    ]
    assert len(entries(sheet)) == 1


# -- hand_correct ----------------------------------------------------------------------------


def test_hand_correct_replaces_the_entry_and_rescores_every_later_deal():
    sheet = with_deals(
        manipulation_sheet(), penalties(0, 25, 40), penalties(10, 0, 30), penalties(5, 5, 0)
    )
    outcome = services.hand_correct(sheet=sheet, number=1, data=penalties(0, 5, 40))
    assert outcome.hand.number == 1
    assert outcome.hand.entry == penalties(0, 5, 40)
    # Deals 2 and 3 are added on top of the corrected deal 1.
    assert [deal.totals for deal in outcome.state.deals] == [(0, 5, 40), (10, 5, 70), (15, 10, 70)]
    assert totals(sheet) == (15, 10, 70)
    assert version(sheet) == 4


def test_hand_correct_that_makes_a_later_deal_impossible_changes_nothing():
    sheet = with_deals(pitch_sheet(), A_MAKES_4, A_MAKES_4, A_MAKES_4)
    with pytest.raises(RuleError) as error:
        # Shooting the moon from 5 (above zero) wins the game at once, so deal 3
        # could not have been played after it.
        services.hand_correct(sheet=sheet, number=2, data=A_MOON)
    assert problems(error) == [
        (
            None,
            "With this change the game ends with deal 2 (Team A won 52 to 5: it shot the "
            "moon), but deal 3 was entered after it. Delete deal 3 first (the history keeps "
            "it), then make this change again.",
        )
    ]
    assert entries(sheet) == [A_MAKES_4] * 3
    assert totals(sheet) == (15, 15, 15, 15)
    assert version(sheet) == 3


def test_hand_correct_that_ends_the_game_earlier_names_every_later_deal_to_delete():
    # Pitch rules, "End of the game": a moon made from a score above 0 wins at once, so
    # with deal 2 a made moon, deals 3 to 5 were played after the game ended.
    sheet = with_deals(pitch_sheet(), *[A_MAKES_4] * 5)
    with pytest.raises(services.GameEndsEarlier) as error:
        services.hand_correct(sheet=sheet, number=2, data=A_MOON)
    assert problems(error) == [
        (
            None,
            "With this change the game ends with deal 2 (Team A won 52 to 5: it shot the "
            "moon), but deals 3 to 5 were entered after it. Delete them first, from deal 5 "
            "back (the history keeps them), then make this change again.",
        )
    ]
    assert (error.value.first, error.value.last) == (3, 5)
    assert entries(sheet) == [A_MAKES_4] * 5
    assert version(sheet) == 5


def test_hand_correct_that_ends_the_game_earlier_can_delete_the_later_deals_with_it():
    sheet = with_deals(pitch_sheet(), *[A_MAKES_4] * 4)
    later = [h.pk for h in live_hands(sheet)[2:]]
    outcome = services.hand_correct(sheet=sheet, number=2, data=A_MOON, drop_later=True)
    assert entries(sheet) == [A_MAKES_4, A_MOON]
    assert outcome.state.finished
    assert totals(sheet) == (52, 5, 52, 5)
    assert [h.number for h in outcome.hands] == [1, 2]
    # Nothing is lost: each deleted deal is in the history, the last one first.
    removed = list(sheet.events.filter(kind=SheetEvent.REMOVED).order_by("pk"))
    assert [(e.number, e.before) for e in removed] == [(4, A_MAKES_4), (3, A_MAKES_4)]
    assert not Hand.objects.filter(pk__in=later).exists()
    sheet.refresh_from_db()
    assert (sheet.deal_count, sheet.finished) == (2, True)


def test_a_manipulation_correction_that_ends_the_game_earlier_says_round():
    # Manipulation rules: the game ends after the round in which someone reaches the
    # target (200 by default); its sheet counts rounds, not deals.
    sheet = manipulation_sheet()
    with_deals(sheet, penalties(0, 150, 10), penalties(0, 10, 10), penalties(0, 45, 10))
    with pytest.raises(services.GameEndsEarlier) as error:
        # Ben had 150 + 10; with 60 in round 2 he reaches 210 ≥ 200 and the game ends.
        services.hand_correct(sheet=sheet, number=2, data=penalties(0, 60, 10))
    assert problems(error) == [
        (
            None,
            "With this change the game ends with round 2 (Game over after 2 rounds · Ben "
            "reached 210 · Ana wins with 0), but round 3 was entered after it. Delete round 3 "
            "first (the history keeps it), then make this change again.",
        )
    ]
    assert len(entries(sheet)) == 3


def test_hand_correct_with_a_broken_deal_reports_its_own_fields():
    sheet = with_deals(pitch_sheet(), A_MAKES_4)
    with pytest.raises(RuleError) as error:
        services.hand_correct(sheet=sheet, number=1, data={**A_MAKES_4, "bid": 11})
    assert [field for field, _ in problems(error)] == ["bid"]
    assert entries(sheet) == [A_MAKES_4]


@pytest.mark.parametrize(
    ("deals", "number", "message"),
    [
        # Manipulation is scored round by round: its sheets say "round".
        pytest.param(
            2, 3, "There is no round 3 on this sheet; it has rounds 1 to 2.", id="past-end"
        ),
        pytest.param(2, 0, "There is no round 0 on this sheet; it has rounds 1 to 2.", id="zero"),
        pytest.param(
            2, True, "There is no round True on this sheet; it has rounds 1 to 2.", id="bool"
        ),
        pytest.param(0, 1, "There is no round 1 on this sheet; it has no rounds yet.", id="empty"),
    ],
)
def test_correcting_or_removing_a_deal_that_is_not_there(deals, number, message):
    sheet = with_deals(manipulation_sheet(), *[penalties(0, 5, 5)] * deals)
    with pytest.raises(RuleError) as error:
        services.hand_correct(sheet=sheet, number=number, data=penalties(0, 5, 5))
    assert problems(error) == [("number", message)]
    with pytest.raises(RuleError) as error:
        services.hand_remove(sheet=sheet, number=number)
    assert problems(error) == [("number", message)]
    assert len(entries(sheet)) == deals


# -- hand_remove and hand_restore: delete, undo and the undo of the undo ---------------------


def test_removing_a_middle_deal_deletes_it_and_renumbers_the_rest():
    sheet = with_deals(
        manipulation_sheet(), penalties(0, 25, 40), penalties(10, 0, 30), penalties(5, 5, 0)
    )
    state = services.hand_remove(sheet=sheet, number=2).state
    assert state.totals == (5, 30, 40)
    assert [(h.number, h.entry) for h in live_hands(sheet)] == [
        (1, penalties(0, 25, 40)),
        (2, penalties(5, 5, 0)),
    ]
    # A deal taken from the middle is gone for good: there is nothing to bring back.
    assert Hand.objects.filter(sheet=sheet).count() == 2
    assert services.undone_hand(sheet) is None


def test_undo_then_redo_puts_the_last_deal_back():
    sheet = with_deals(manipulation_sheet(), penalties(0, 25, 40), penalties(10, 0, 30))
    state = services.hand_remove(sheet=sheet, number=2).state
    assert state.totals == (0, 25, 40)
    assert entries(sheet) == [penalties(0, 25, 40)]
    assert services.undone_hand(sheet).entry == penalties(10, 0, 30)

    outcome = services.hand_restore(sheet=sheet)
    assert outcome.hand.number == 2
    assert outcome.state.totals == (10, 25, 70)
    assert entries(sheet) == [penalties(0, 25, 40), penalties(10, 0, 30)]
    assert services.undone_hand(sheet) is None

    # The undo of the undo can itself be undone again.
    services.hand_remove(sheet=sheet, number=2)
    assert totals(sheet) == (0, 25, 40)
    services.hand_restore(sheet=sheet)
    assert totals(sheet) == (10, 25, 70)
    assert Hand.objects.filter(sheet=sheet).count() == 2
    assert version(sheet) == 6


def test_redo_with_nothing_undone_is_refused():
    sheet = with_deals(manipulation_sheet(), penalties(0, 25, 40))
    with pytest.raises(RuleError) as error:
        services.hand_restore(sheet=sheet)
    assert problems(error) == [(None, "There is no undone round to bring back.")]
    assert version(sheet) == 1


def test_a_new_deal_after_an_undo_discards_the_undone_one():
    sheet = with_deals(manipulation_sheet(), penalties(0, 25, 40), penalties(10, 0, 30))
    services.hand_remove(sheet=sheet, number=2)
    outcome = services.hand_record(sheet=sheet, data=penalties(5, 5, 0))
    assert outcome.hand.number == 2
    assert outcome.state.totals == (5, 30, 40)
    assert Hand.objects.filter(sheet=sheet).count() == 2
    with pytest.raises(RuleError):
        services.hand_restore(sheet=sheet)
    assert entries(sheet) == [penalties(0, 25, 40), penalties(5, 5, 0)]


def test_every_undo_can_be_brought_back_in_order():
    # Bring back works for any number of undos: last undone, first back.
    sheet = with_deals(
        manipulation_sheet(), penalties(0, 25, 40), penalties(10, 0, 30), penalties(5, 5, 0)
    )
    services.hand_remove(sheet=sheet, number=3)
    services.hand_remove(sheet=sheet, number=2)
    assert entries(sheet) == [penalties(0, 25, 40)]
    services.hand_restore(sheet=sheet)
    assert entries(sheet) == [penalties(0, 25, 40), penalties(10, 0, 30)]
    services.hand_restore(sheet=sheet)
    assert entries(sheet) == [penalties(0, 25, 40), penalties(10, 0, 30), penalties(5, 5, 0)]
    with pytest.raises(RuleError):
        services.hand_restore(sheet=sheet)


def test_redo_that_no_longer_fits_the_sheet_is_refused():
    sheet = with_deals(pitch_sheet(), A_MAKES_4, A_MAKES_4, A_MAKES_4)
    services.hand_remove(sheet=sheet, number=3)
    # Deal 2 corrected to a winning moon ends the game, so deal 3 cannot come back.
    services.hand_correct(sheet=sheet, number=2, data=A_MOON)
    assert totals(sheet) == (52, 5, 52, 5)
    with pytest.raises(RuleError) as error:
        services.hand_restore(sheet=sheet)
    assert problems(error) == [
        (
            None,
            "The game is over: team A (Ana & Cem) won 52 to 5 (it shot the moon). "
            "Start a new sheet for another game.",
        )
    ]
    assert entries(sheet) == [A_MAKES_4, A_MOON]
    assert services.undone_hand(sheet) is not None


def test_remove_that_makes_a_later_deal_impossible_changes_nothing():
    sheet = services.sheet_create(game="skat", players=FOUR)
    clubs = {"game": "clubs", "bid": 18, "matadors": {"with": 1}, "outcome": "won"}
    # At four the dealer sits out: deal 1 Ana, deal 2 Ben, deal 3 Cem.
    with_deals(sheet, {"declarer": 1, **clubs}, {"declarer": 2, **clubs}, {"declarer": 1, **clubs})
    with pytest.raises(RuleError) as error:
        services.hand_remove(sheet=sheet, number=2)
    # Without deal 2, Ben's deal 3 would be deal 2, which Ben deals and sits out.
    assert problems(error)[0][0] is None
    assert problems(error)[0][1].startswith("With this change deal 2 no longer fits the sheet:")
    assert len(entries(sheet)) == 3
    assert totals(sheet) == (0, 48, 24, 0)


# -- hand_preview -----------------------------------------------------------------------------


def test_hand_preview_scores_a_new_deal_and_stores_nothing():
    sheet = with_deals(manipulation_sheet(), penalties(0, 25, 40))
    state, deal = services.hand_preview(sheet=sheet, data=penalties(10, 0, 30))
    assert deal.number == 2
    assert deal.scores == (10, 0, 30)
    assert state.totals == (10, 25, 70)
    assert entries(sheet) == [penalties(0, 25, 40)]
    assert version(sheet) == 1
    assert Hand.objects.count() == 1


def test_hand_preview_of_a_correction_rescores_later_deals_and_stores_nothing():
    sheet = with_deals(manipulation_sheet(), penalties(0, 25, 40), penalties(10, 0, 30))
    state, deal = services.hand_preview(sheet=sheet, data=penalties(0, 5, 40), number=1)
    assert deal.number == 1
    assert state.totals == (10, 5, 70)
    assert entries(sheet) == [penalties(0, 25, 40), penalties(10, 0, 30)]
    assert version(sheet) == 2


def test_hand_preview_of_a_broken_deal_raises_and_stores_nothing():
    sheet = manipulation_sheet()
    with pytest.raises(RuleError):
        services.hand_preview(sheet=sheet, data=penalties(0, 3, 5))
    with pytest.raises(RuleError) as error:
        services.hand_preview(sheet=sheet, data=penalties(0, 5, 5), number=1)
    assert problems(error)[0][0] == "number"
    assert Hand.objects.count() == 0


# -- idempotent ----------------------------------------------------------------------------------


def recorder(sheet: Sheet, data: dict, calls: list[int]):
    def action() -> services.Answer:
        calls.append(1)
        outcome = services.hand_record(sheet=sheet, data=data)
        return 201, {"number": outcome.hand.number}

    return action


def test_idempotent_runs_the_action_once_per_key():
    sheet = manipulation_sheet()
    calls: list[int] = []
    print_ = services.fingerprint("POST", "/x", penalties(0, 5, 5))
    action = recorder(sheet, penalties(0, 5, 5), calls)
    first = services.idempotent(scope="t", key="k1", print_=print_, action=action)
    again = services.idempotent(scope="t", key="k1", print_=print_, action=action)
    assert first == again == (201, {"number": 1})
    assert calls == [1]
    assert len(entries(sheet)) == 1


def test_idempotent_under_a_race_stores_the_deal_once():
    """Two requests with one key at once: both miss the stored key and run the action;
    the second one's key insert fails, its deal rolls back with it, and it answers
    with what the first one stored."""
    sheet = manipulation_sheet()
    print_ = services.fingerprint("POST", "/x", penalties(0, 5, 5))
    calls: list[int] = []
    action = recorder(sheet, penalties(0, 5, 5), calls)
    first = services.idempotent(scope="t", key="k1", print_=print_, action=action)

    real_filter = IdempotencyKey.objects.filter
    lookups: list[int] = []

    def late_lookup(*args, **kwargs):
        # The racing request looked before the first one had committed its key.
        lookups.append(1)
        if len(lookups) == 1:
            return IdempotencyKey.objects.none()
        return real_filter(*args, **kwargs)

    with mock.patch.object(IdempotencyKey.objects, "filter", side_effect=late_lookup):
        second = services.idempotent(scope="t", key="k1", print_=print_, action=action)

    assert second == first == (201, {"number": 1})
    assert len(calls) == 2  # the racing request did run its action …
    assert len(entries(sheet)) == 1  # … but its deal rolled back with the key insert
    assert Hand.objects.count() == 1
    assert IdempotencyKey.objects.count() == 1
    assert version(sheet) == 1


def test_idempotent_with_the_same_key_for_another_request_is_refused():
    sheet = manipulation_sheet()
    calls: list[int] = []
    services.idempotent(
        scope="t",
        key="k1",
        print_=services.fingerprint("POST", "/x", penalties(0, 5, 5)),
        action=recorder(sheet, penalties(0, 5, 5), calls),
    )
    status, body = services.idempotent(
        scope="t",
        key="k1",
        print_=services.fingerprint("POST", "/x", penalties(0, 10, 10)),
        action=recorder(sheet, penalties(0, 10, 10), calls),
    )
    assert status == 422
    assert body["errors"][0]["field"] is None
    assert "already used for a different request" in body["errors"][0]["message"]
    assert calls == [1]
    assert entries(sheet) == [penalties(0, 5, 5)]


@pytest.mark.parametrize("key", [None, ""], ids=["none", "empty"])
def test_idempotent_without_a_key_runs_every_time(key):
    sheet = manipulation_sheet()
    calls: list[int] = []
    action = recorder(sheet, penalties(0, 5, 5), calls)
    for _ in range(2):
        services.idempotent(scope="t", key=key, print_="p", action=action)
    assert calls == [1, 1]
    assert len(entries(sheet)) == 2
    assert IdempotencyKey.objects.count() == 0


def test_idempotent_refuses_an_overlong_key_without_running():
    calls: list[int] = []
    status, body = services.idempotent(
        scope="t", key="k" * 101, print_="p", action=lambda: calls.append(1) or (200, {})
    )
    assert status == 400
    assert body["errors"][0]["message"] == "An Idempotency-Key has at most 100 characters."
    assert calls == []


def test_fingerprint_ignores_key_order_but_not_values():
    assert services.fingerprint("POST", "/p", {"a": 1, "b": 2}) == services.fingerprint(
        "POST", "/p", {"b": 2, "a": 1}
    )
    assert services.fingerprint("POST", "/p", {"a": 1}) != services.fingerprint(
        "POST", "/p", {"a": 2}
    )
    assert services.fingerprint("POST", "/p", {"a": 1}) != services.fingerprint(
        "POST", "/q", {"a": 1}
    )


def test_a_name_with_a_nul_is_refused_before_the_database_sees_it():
    # PostgreSQL refuses NUL in text: the service says so instead of failing (a 500).
    with pytest.raises(RuleError) as error:
        services.sheet_create(game="skat", players=["Ana\x00", "Ben", "Cem"])
    assert problems(error) == [("players.0", "A name cannot contain a NUL character.")]
    assert Sheet.objects.count() == 0


def test_a_fingerprint_takes_any_text():
    # A lone surrogate cannot be encoded as UTF-8; the fingerprint still works.
    assert len(services.fingerprint("POST", "/x", {"name": "\ud800"})) == 64
