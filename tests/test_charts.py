"""Server-drawn SVG line charts (games/charts.py)."""

import ast
import itertools
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from games.charts import MINUS, Series, data_rows, format_number, line_chart, nice_scale

SVG = "{http://www.w3.org/2000/svg}"
CHARTS_PY = Path(__file__).resolve().parent.parent / "games" / "charts.py"
CHARTS_CSS = Path(__file__).resolve().parent.parent / "static" / "css" / "charts.css"

EVENINGS = [f"{d} Mar" for d in range(1, 13)]
PLAYERS = [
    Series("Ana", (12, 40, 25, 60, 88, 70, 102, 130, 118, 150, 171, 196)),
    Series("Ben", (-20, -5, 18, 12, -30, -12, 5, 33, 61, 48, 80, 95)),
    Series("Cleo", (None, None, 30, 22, 45, 38, 20, -10, -35, -22, -48, -60)),
    Series("Dmitri", (5, -25, -40, -62, -55, -80, -71, -90, -66, -84, -101, -77)),
    Series("Eve", (0, 15, 30, None, None, 52, 70, 64, 90, 83, 110, 99)),
]


def draw(**kwargs):
    args = {
        "title": "Running totals",
        "description": "Ana leads with 196 points.",
        "x_labels": EVENINGS,
        "series": PLAYERS,
    }
    args.update(kwargs)
    return line_chart(**args)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # raises if the markup is not well-formed XML


def series_groups(root):
    return [g for g in root.iter(f"{SVG}g") if re.search(r"\bchart-series\b", g.get("class", ""))]


def plot_groups(root):
    """Series groups of the plot (not the legend)."""
    legend = root.find(f".//{SVG}g[@class='chart-legend']")
    in_legend = {id(g) for g in legend.iter(f"{SVG}g")}
    return [g for g in series_groups(root) if id(g) not in in_legend]


def texts(root, cls):
    return [
        "".join(t.itertext()) for t in root.iter(f"{SVG}text") if cls in t.get("class", "").split()
    ]


def subpaths(path) -> int:
    return len(re.findall(r"M", path.get("d")))


# ---- markup ----------------------------------------------------------------------


def test_output_is_svg_with_accessible_name_and_description():
    root = parse(draw())
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert root.get("viewBox").startswith("0 0 380 ")
    title, desc = root[0], root[1]
    assert title.tag == f"{SVG}title"
    assert title.text == "Running totals"
    assert desc.tag == f"{SVG}desc"
    assert desc.text == "Ana leads with 196 points."
    assert root.get("aria-labelledby").split() == [title.get("id"), desc.get("id")]
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids))


def test_untrusted_text_is_escaped():
    evil = '<b>Ana & "Ben"</b>'
    svg = draw(
        title=f"Totals {evil}",
        description=f"About {evil}",
        x_labels=[evil, "2"],
        series=[Series(evil, (1, 2))],
        y_label=evil,
    )
    assert "<b>" not in svg
    root = parse(svg)
    assert not list(root.iter("b"))
    assert not list(root.iter(f"{SVG}b"))
    assert root[0].text == f"Totals {evil}"
    assert root[1].text == f"About {evil}"
    assert evil in texts(root, "chart-legend-text")
    assert evil in texts(root, "chart-xtick")
    assert evil in texts(root, "chart-axis-title")


def test_characters_xml_forbids_are_dropped():
    root = parse(draw(series=[Series("A\x00n\x1ba", (1,) * 12)]))
    assert texts(root, "chart-legend-text") == ["Ana"]


def test_no_style_attributes_or_scripts_anywhere():
    svg = draw(highlight=1, y_label="points")
    root = parse(svg)
    for element in root.iter():
        assert "style" not in element.attrib, element.tag
        assert not any(name.startswith("on") for name in element.attrib), element.tag
        assert element.tag not in {f"{SVG}style", f"{SVG}script"}
        # colours and fonts come from charts.css, through classes only
        assert not {"fill", "stroke", "font-size", "font-family", "color"} & set(element.attrib)


def test_output_is_deterministic():
    assert draw() == draw()
    assert draw(chart_id="mine") != draw()
    assert parse(draw(chart_id="mine")).get("id") == "mine"


def test_identical_ids_are_avoidable_on_one_page():
    assert parse(draw()).get("id") != parse(draw(title="Other")).get("id")


# ---- lines -----------------------------------------------------------------------


def test_one_path_per_series_with_class_per_colour():
    root = parse(draw())
    groups = plot_groups(root)
    assert len(groups) == len(PLAYERS)
    for i, group in enumerate(groups):
        assert f"chart-series-{i}" in group.get("class").split()
        assert len(group.findall(f"{SVG}path")) == 1
        assert len(group.findall(f"{SVG}circle[@class='chart-end']")) == 1
    assert len(root.findall(f".//{SVG}path")) == len(PLAYERS)


def test_colour_classes_cycle_after_eight():
    many = [Series(f"P{i}", (i, i + 1)) for i in range(10)]
    root = parse(draw(x_labels=["1", "2"], series=many))
    classes = [g.get("class").split()[1] for g in plot_groups(root)]
    assert classes[8] == "chart-series-0"
    assert classes[9] == "chart-series-1"


def test_gaps_split_the_line():
    root = parse(draw())
    paths = {g.get("class").split()[1]: g.find(f"{SVG}path") for g in plot_groups(root)}
    assert subpaths(paths["chart-series-0"]) == 1  # Ana: no gap
    assert subpaths(paths["chart-series-2"]) == 1  # Cleo: joined late, no gap after
    assert subpaths(paths["chart-series-4"]) == 2  # Eve: missed two evenings
    cleo = paths["chart-series-2"].get("d")
    assert cleo.count("L") == 9  # 10 points


def test_isolated_point_between_gaps_gets_a_dot():
    s = Series("Ana", (1, None, 5, None, 7, 8))
    root = parse(draw(x_labels=list("abcdef"), series=[s]))
    (group,) = plot_groups(root)
    assert subpaths(group.find(f"{SVG}path")) == 3
    assert len(group.findall(f"{SVG}circle[@class='chart-dot']")) == 2  # a and c
    assert len(group.findall(f"{SVG}circle[@class='chart-end']")) == 1


def test_single_point_series_is_a_visible_dot():
    s = Series("Newcomer", (None, None, None, 42))
    root = parse(draw(x_labels=list("abcd"), series=[Series("Ana", (1, 2, 3, 4)), s]))
    group = plot_groups(root)[1]
    end = group.find(f"{SVG}circle")
    assert float(end.get("r")) >= 3
    assert "42" in texts(group, "chart-value")


def test_single_x_position():
    root = parse(draw(x_labels=["Tonight"], series=[Series("Ana", (5,)), Series("Ben", (-3,))]))
    assert len(root.findall(f".//{SVG}circle[@class='chart-end']")) == 2
    assert texts(root, "chart-xtick") == ["Tonight"]


def test_series_without_any_value_is_in_the_legend_only():
    root = parse(draw(series=[*PLAYERS, Series("Absent", (None,) * 12)]))
    assert len(plot_groups(root)) == len(PLAYERS)
    assert "Absent" in texts(root, "chart-legend-text")


def test_last_values_are_labelled():
    root = parse(draw())
    assert set(texts(root, "chart-value")) <= {"196", "95", f"{MINUS}60", f"{MINUS}77", "99"}
    assert "196" in texts(root, "chart-value")


def test_value_labels_do_not_overlap():
    close = [Series(f"P{i}", (0, 100 + i)) for i in range(6)]
    root = parse(draw(x_labels=["1", "2"], series=close))
    ys = sorted(
        float(t.get("y")) for t in root.iter(f"{SVG}text") if t.get("class") == "chart-value"
    )
    assert ys
    assert all(b - a >= 14 for a, b in itertools.pairwise(ys))


def test_highlight_marks_one_series_and_draws_it_on_top():
    root = parse(draw(highlight=2))
    groups = plot_groups(root)
    assert "is-highlight" in groups[-1].get("class").split()
    assert "chart-series-2" in groups[-1].get("class").split()
    assert all("is-muted" in g.get("class").split() for g in groups[:-1])
    assert not any("is-muted" in g.get("class") for g in plot_groups(parse(draw())))


# ---- axes ------------------------------------------------------------------------


def gridline_values(root):
    return texts(root, "chart-ytick")


def test_y_gridlines_at_nice_steps_with_minus_sign():
    root = parse(draw())
    labels = gridline_values(root)
    assert labels == [f"{MINUS}150", f"{MINUS}100", f"{MINUS}50", "0", "50", "100", "150", "200"]
    assert not any("-" in label for label in labels)  # no hyphen-minus
    zero = root.findall(f".//{SVG}line[@class='chart-gridline chart-zero']")
    assert len(zero) == 1


def test_no_zero_line_when_range_stays_positive():
    root = parse(draw(x_labels=["1", "2", "3"], series=[Series("A", (120, 340, 980))]))
    assert not root.findall(f".//{SVG}line[@class='chart-gridline chart-zero']")
    assert gridline_values(root) == ["0", "200", "400", "600", "800", "1,000"]


@pytest.mark.parametrize(
    ("low", "high", "integers"),
    [(-101, 196, True), (0, 7, True), (3, 98, True), (1, 1, True), (0.1, 0.35, False),
     (-12345, 67890, True), (0, 0, True), (-5, -5, True), (999, 1001, True)],
)  # fmt: skip
def test_nice_scale_steps(low, high, integers):
    bottom, top, step = nice_scale(low, high, integers=integers)
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert round(mantissa, 6) in {1, 2, 5}
    assert bottom <= low
    assert top >= high
    assert bottom < top
    assert abs(bottom / step - round(bottom / step)) < 1e-6
    assert abs(top / step - round(top / step)) < 1e-6
    if integers:
        assert step >= 1
    assert (top - bottom) / step <= 7


def test_integer_scores_never_get_fractional_gridlines():
    root = parse(draw(x_labels=["1", "2"], series=[Series("A", (0, 1))]))
    labels = gridline_values(root)
    assert len(labels) == len(set(labels))


def test_number_format():
    assert format_number(1234567) == "1,234,567"
    assert format_number(-1234) == f"{MINUS}1,234"
    assert format_number(0) == "0"
    assert format_number(-0.2) == "0"  # no "−0"
    root = parse(draw(number_format=lambda v: f"{v:+.0f} P"))
    assert "+0 P" in gridline_values(root)


def test_x_labels_thinned_for_forty_positions():
    x = [f"Deal {i}" for i in range(1, 41)]
    s = [Series("Ana", tuple(range(40))), Series("Ben", tuple(-i for i in range(40)))]
    root = parse(draw(x_labels=x, series=s))
    shown = texts(root, "chart-xtick")
    assert 2 <= len(shown) <= 6
    assert shown[-1] == "Deal 40"  # the latest is always shown
    assert len(root.findall(f".//{SVG}line[@class='chart-xtick-mark']")) == len(shown)
    # evenly spaced and apart
    xs = [float(t.get("x")) for t in root.iter(f"{SVG}text") if t.get("class") == "chart-xtick"]
    gaps = [b - a for a, b in itertools.pairwise(xs)]
    assert min(gaps) > len("Deal 40") * 14 * 0.6


def test_all_x_labels_shown_when_few():
    root = parse(draw(x_labels=["1", "2", "3", "4"], series=[Series("A", (1, 2, 3, 4))]))
    assert texts(root, "chart-xtick") == ["1", "2", "3", "4"]


def test_long_x_labels_are_fewer():
    x = [f"Saturday {i:02d} March 2025" for i in range(1, 13)]
    root = parse(draw(x_labels=x))
    shown = texts(root, "chart-xtick")
    assert 1 <= len(shown) <= 2
    assert shown[-1] == x[-1]


def test_everything_inside_the_viewbox():
    root = parse(draw(series=[*PLAYERS, Series("X" * 60, (1,) * 12)], y_label="points"))
    width = float(root.get("viewBox").split()[2])
    for element in root.iter():
        for name in ("x", "x1", "x2", "cx"):
            if name in element.attrib:
                assert 0 <= float(element.get(name)) <= width, (element.tag, element.attrib)
    legend = texts(root, "chart-legend-text")
    assert any(t.endswith("…") for t in legend)


# ---- legend and table ------------------------------------------------------------


def test_legend_lists_every_series_in_order_with_swatches():
    root = parse(draw())
    assert texts(root, "chart-legend-text") == [s.label for s in PLAYERS]
    legend = root.find(f".//{SVG}g[@class='chart-legend']")
    assert len(legend.findall(f".//{SVG}line[@class='chart-swatch']")) == len(PLAYERS)


def test_data_rows():
    rows = data_rows(EVENINGS, PLAYERS, x_heading="Evening")
    assert rows[0] == ["Evening", "Ana", "Ben", "Cleo", "Dmitri", "Eve"]
    assert rows[1] == ["1 Mar", "12", f"{MINUS}20", "–", "5", "0"]
    assert rows[-1] == ["12 Mar", "196", "95", f"{MINUS}60", f"{MINUS}77", "99"]
    assert len(rows) == 13
    rows = data_rows(["a"], [Series("<b>", (1500,))], number_format=str, missing="n/a")
    assert rows == [["", "<b>"], ["a", "1500"]]  # plain text: the template escapes


# ---- errors ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"x_labels": []},
        {"series": []},
        {"series": [Series("A", (None,) * 12)]},
        {"series": [Series("A", (1, 2))]},  # wrong length
        {"series": [Series("A", (float("nan"),) * 12)]},
        {"highlight": 5},
        {"highlight": -1},
        {"title": "  "},
    ],
)
def test_nothing_to_draw_or_bad_input_raises(kwargs):
    with pytest.raises(ValueError):
        draw(**kwargs)


def test_data_rows_checks_lengths():
    with pytest.raises(ValueError):
        data_rows(["a", "b"], [Series("A", (1,))])


# ---- purity and styles -----------------------------------------------------------


def test_charts_module_uses_the_standard_library_only():
    tree = ast.parse(CHARTS_PY.read_text())
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative imports"
            modules.add(node.module.split(".")[0])
    assert "django" not in modules
    assert modules <= {
        "__future__", "collections", "dataclasses", "decimal", "hashlib", "html", "math", "re",
        "typing",
    }  # fmt: skip


def test_every_class_used_has_a_rule_in_charts_css():
    css = CHARTS_CSS.read_text()
    root = parse(draw(highlight=0, y_label="points"))
    used = {c for e in root.iter() for c in e.get("class", "").split()}
    structural = {"chart-series", "chart-grid", "chart-xaxis", "chart-legend"}
    for cls in used - structural:
        assert f".{cls}" in css, cls
    for i in range(8):
        assert css.count(f".chart-series-{i} {{ --series:") == 2  # light and dark
    assert "prefers-color-scheme: dark" in css
