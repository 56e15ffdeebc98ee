"""The game registry: one entry per game.

Everything that differs between games and is not a rule (names, players at the
table, the referee module, where its pages live) is looked up here, so adding a
game later is one new entry plus its rules module.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from games.rules import manipulation, pitch, skat


@dataclass(frozen=True)
class GameEntry:
    slug: str
    name: str
    players: tuple[int, ...]
    rules: ModuleType
    tagline: str
    summary: str
    endpoints: tuple[str, ...]

    @property
    def players_label(self) -> str:
        low, high = min(self.players), max(self.players)
        return f"{low} players" if low == high else f"{low} to {high} players"


GAMES: dict[str, GameEntry] = {
    entry.slug: entry
    for entry in (
        GameEntry(
            slug="skat",
            name="Skat",
            players=(3, 4),
            rules=skat,
            tagline="Game value, matadors, overbidding and the list",
            summary=(
                "Base value times levels, Null values, overbidding, Kontra and Re, "
                "Bock and Ramsch, and Seeger-Fabian for the series, by the "
                "International Skat Order."
            ),
            endpoints=("games:api-skat-score", "games:api-skat-trick", "games:api-skat-follow"),
        ),
        GameEntry(
            slug="pitch",
            name="10-Point Pitch",
            players=(4,),
            rules=pitch,
            tagline="Bids, the ten points and shooting the moon",
            summary=(
                "Two teams race to 52. Who took the ace, jacks, jokers, ten, two and "
                "three; made or set; the moon won or lost."
            ),
            endpoints=("games:api-pitch-hand", "games:api-pitch-trick"),
        ),
        GameEntry(
            slug="manipulation",
            name="Manipulation",
            players=(3, 4, 5),
            rules=manipulation,
            tagline="Melds, rearranging the table, penalty points",
            summary=(
                "Rummy with two decks where the whole table may be rearranged. Checks "
                "melds and turns, finds a layout for any set of cards, and counts penalties."
            ),
            endpoints=(
                "games:api-manipulation-melds",
                "games:api-manipulation-turn",
                "games:api-manipulation-arrange",
                "games:api-manipulation-round",
            ),
        ),
    )
}
