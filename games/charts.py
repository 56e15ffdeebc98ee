"""Line charts as inline SVG, drawn on the server.

Pure Python (standard library only, no Django), so it can be tested and reused
anywhere.  :func:`line_chart` returns SVG markup meant to be inserted into a
page with ``|safe``: every piece of text in it (title, description, names,
labels) is XML-escaped here.

The markup carries no ``style`` attributes, no presentation attributes for
colours or fonts and no scripts -- the site's Content Security Policy forbids
inline styles -- only ``class`` attributes; ``static/css/charts.css`` does all
the styling (series colours for light and dark mode, font sizes, strokes).  The
font sizes below (``_TICK_FONT`` ...) must match that file: they are only used
to estimate text widths for the layout.

The chart is phone first: the viewBox is 380 units wide, so text set at 14
units is still about 13 px tall when the SVG is 350 px wide.  The CSS scales it
to the width of its container (capped on desktop).

For screen readers the SVG is one image (``role="img"``) labelled by its
``<title>`` and ``<desc>``; pages should also offer the numbers as a table,
built from :func:`data_rows`.
"""

from __future__ import annotations

import hashlib
import html
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

__all__ = [
    "MINUS",
    "SERIES_CLASSES",
    "Series",
    "data_rows",
    "format_number",
    "line_chart",
    "nice_scale",
]

MINUS = "\u2212"  # a real minus sign, not a hyphen
SERIES_CLASSES = 8  # chart-series-0 ... chart-series-7 in charts.css; cycled beyond

# Geometry, in viewBox units.
_WIDTH = 380
_PLOT_HEIGHT = 210
_PAD = 4
_TICK_FONT = 14  # .chart-ytick, .chart-xtick
_VALUE_FONT = 14  # .chart-value (bold)
_LEGEND_FONT = 15  # .chart-legend-text
_AXIS_FONT = 13  # .chart-axis-title
_LEGEND_ROW = 24
_SWATCH = 20
_MAX_X_LABELS = 6
_Y_TARGET_STEPS = 5
_END_RADIUS = 4.5
_DOT_RADIUS = 3.5

# Average advance widths as a fraction of the font size; a little generous for
# DejaVu Sans (the widest likely system font) so estimates err on the safe side.
_DIGIT_EM = 0.64
_TEXT_EM = 0.6
_BOLD_EM = 0.68

# Characters XML 1.0 does not allow, even escaped.
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


@dataclass(frozen=True)
class Series:
    """One line: a player's or team's name and one value per x position.

    ``None`` means "no value there" (the player had not joined yet, or sat out):
    the line has a gap.  ``label`` is untrusted user text; the chart escapes it.
    """

    label: str
    values: tuple[float | None, ...]

    def __post_init__(self) -> None:
        # Accept any sequence, store a tuple so the series stays hashable.
        object.__setattr__(self, "values", tuple(self.values))


def format_number(value: float) -> str:
    """The default number format: ``1,234`` and ``−56`` (U+2212), rounded to integers
    half away from zero."""
    # Half away from zero on the number as written, as scorekeeper.rounding does (this
    # module keeps to the standard library): 62.5 → 63, not round()'s 62.
    whole = Decimal(str(abs(value))).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    text = f"{whole:,}"
    if value < 0 and text.strip("0,") != "":
        return MINUS + text
    return text


def nice_scale(
    low: float, high: float, *, target_steps: int = _Y_TARGET_STEPS, integers: bool = False
) -> tuple[float, float, float]:
    """Round a data range outwards to a "nice" step of 1, 2 or 5 × 10ⁿ.

    Returns ``(bottom, top, step)`` with ``bottom <= low``, ``top >= high`` and
    both multiples of ``step``.  With ``integers=True`` the step is at least 1
    (so integer scores never get gridlines at 0.5).
    """
    if not (math.isfinite(low) and math.isfinite(high)):
        raise ValueError("the range must be finite")
    if low > high:
        low, high = high, low
    if low == high:
        pad = max(abs(low) * 0.1, 1.0)
        low, high = low - pad, high + pad
    span = high - low
    exponent = math.floor(math.log10(span / max(target_steps, 1)))
    candidates = []
    for e in range(exponent - 1, exponent + 3):
        for m in (1, 2, 5):
            step = _clean(m * 10.0**e)
            if integers and step < 1:
                continue
            bottom = math.floor(low / step + 1e-9) * step
            top = math.ceil(high / step - 1e-9) * step
            intervals = round((top - bottom) / step)
            fits = 3 <= intervals <= target_steps + 2
            # Prefer a step count in range, then the tightest fit around the
            # data, then a count near the target, then fewer gridlines (when
            # nothing fits -- tiny integer ranges -- the smallest step).
            key = (
                not fits,
                -round(span / (top - bottom), 6) if fits else 0,
                abs(intervals - target_steps),
                -step if fits else step,
            )
            candidates.append((key, bottom, top, step))
    _, bottom, top, step = min(candidates)
    return _clean(bottom), _clean(top), _clean(step)


def data_rows(
    x_labels: Sequence[str],
    series: Sequence[Series],
    *,
    number_format: Callable[[float], str] = format_number,
    x_heading: str = "",
    missing: str = "–",
) -> list[list[str]]:
    """The chart's numbers as table rows, for a visually hidden or collapsible table.

    The first row is the header: ``[x_heading, name, name, ...]``; then one row
    per x position: ``[x_label, value, value, ...]`` with ``missing`` where a
    series has no value.  One column per series keeps the table narrow on a
    phone.  The strings are plain text: let the template escape them.
    """
    _check_lengths(x_labels, series)
    rows = [[x_heading, *(s.label for s in series)]]
    for i, x_label in enumerate(x_labels):
        row = [str(x_label)]
        for s in series:
            value = s.values[i]
            row.append(missing if value is None else number_format(value))
        rows.append(row)
    return rows


def line_chart(
    *,
    title: str,
    description: str,
    x_labels: Sequence[str],
    series: Sequence[Series],
    y_label: str = "",
    number_format: Callable[[float], str] = format_number,
    highlight: int | None = None,
    chart_id: str | None = None,
) -> str:
    """Draw a line chart and return its SVG markup (XML, safe to insert with ``|safe``).

    * ``title`` and ``description`` become ``<title>`` and ``<desc>``, referenced
      by ``aria-labelledby``; say in the description what the chart shows and
      its main finding, e.g. "Ana leads with 120 points after 12 evenings".
    * ``x_labels``: one per x position (dates, deal numbers); thinned so they
      never overlap, at most six, always including the last one.
    * ``series``: each needs exactly ``len(x_labels)`` values; ``None`` leaves a
      gap.  Colours come from the classes ``chart-series-0`` ... ``-7``, cycled
      (series 4–7 are dashed, so cycled colours stay apart).  A series without
      any value gets a legend entry but no line.
    * ``y_label``: a short unit ("points") shown above the y axis.
    * ``number_format``: formats the y tick labels and the last-value labels.
    * ``highlight``: index of a series drawn thicker, on top; the others muted.
    * ``chart_id``: prefix for the element ids; defaults to a hash of the
      content, so the output is deterministic.  Pass one to tell apart two
      charts with identical content on one page.

    Raises ``ValueError`` when there is nothing to draw (no x labels, no series,
    or no value at all) -- the caller decides what to show instead -- and for
    inconsistent input (wrong number of values, non-finite values, a
    ``highlight`` out of range, an empty title).
    """
    if not title.strip():
        raise ValueError("a chart needs a title (it is its accessible name)")
    if not x_labels:
        raise ValueError("nothing to draw: no x labels")
    if not series:
        raise ValueError("nothing to draw: no series")
    _check_lengths(x_labels, series)
    values = [v for s in series for v in s.values if v is not None]
    if not values:
        raise ValueError("nothing to draw: no values at all")
    if not all(isinstance(v, int | float) and math.isfinite(v) for v in values):
        raise ValueError("values must be finite numbers or None")
    if highlight is not None and not 0 <= highlight < len(series):
        raise ValueError(f"highlight {highlight} is not a series index")

    ident = chart_id or _content_id(title, description, x_labels, series, y_label, highlight)
    ident = re.sub(r"[^A-Za-z0-9_-]", "-", ident)
    if not ident[:1].isalpha():
        ident = "chart-" + ident

    n = len(x_labels)
    integers = all(float(v).is_integer() for v in values)
    bottom, top, step = nice_scale(min(values), max(values), integers=integers)
    ticks = [
        _clean(k * step) for k in range(round(bottom / step), round(top / step) + 1)
    ]  # bottom..top inclusive
    tick_texts = [number_format(t) for t in ticks]

    # Horizontal layout: y tick labels left, room for last-value labels right.
    plot_top = _PAD + 10 + (_AXIS_FONT + 8 if y_label else 0)
    plot_bottom = plot_top + _PLOT_HEIGHT
    plot_left = _PAD + max(_width(t, _TICK_FONT, _DIGIT_EM) for t in tick_texts) + 8
    ends = [_last_index(s.values) for s in series]
    end_texts = [
        number_format(s.values[e]) if e is not None else ""
        for s, e in zip(series, ends, strict=True)
    ]
    right_room = max(
        (
            _width(t, _VALUE_FONT, _BOLD_EM)
            for t, e in zip(end_texts, ends, strict=True)
            if e == n - 1
        ),
        default=0,
    )
    plot_right = _WIDTH - _PAD - min(max(right_room + _END_RADIUS + 6, 10), 110)

    def x_at(i: int) -> float:
        if n == 1:
            return (plot_left + plot_right) / 2
        return plot_left + i * (plot_right - plot_left) / (n - 1)

    def y_at(v: float) -> float:
        return plot_top + (top - v) / (top - bottom) * _PLOT_HEIGHT

    out: list[str] = []
    title_id, desc_id = f"{ident}-title", f"{ident}-desc"

    # Gridlines and y tick labels.
    out.append('<g class="chart-grid" aria-hidden="true">')
    crosses_zero = bottom < 0 < top
    for t, text in zip(ticks, tick_texts, strict=True):
        y = y_at(t)
        cls = "chart-gridline chart-zero" if crosses_zero and t == 0 else "chart-gridline"
        out.append(
            f'<line class="{cls}" x1="{_n(plot_left)}" y1="{_n(y)}" x2="{_n(plot_right)}" y2="{_n(y)}"/>'
        )
        out.append(
            f'<text class="chart-ytick" x="{_n(plot_left - 6)}" y="{_n(y)}" dy="0.35em">{_esc(text)}</text>'
        )
    out.append("</g>")

    # X tick labels, thinned.
    out.append('<g class="chart-xaxis" aria-hidden="true">')
    label_y = plot_bottom + 8 + _TICK_FONT
    for i, cx in _x_label_positions(x_labels, x_at, plot_right - plot_left):
        x = x_at(i)
        out.append(
            f'<line class="chart-xtick-mark" x1="{_n(x)}" y1="{_n(plot_bottom)}" x2="{_n(x)}" y2="{_n(plot_bottom + 5)}"/>'
        )
        out.append(
            f'<text class="chart-xtick" x="{_n(cx)}" y="{_n(label_y)}">{_esc(str(x_labels[i]))}</text>'
        )
    out.append("</g>")

    if y_label:
        out.append(
            f'<text class="chart-axis-title" x="{_n(_PAD)}" y="{_n(_PAD + _AXIS_FONT)}" aria-hidden="true">{_esc(y_label)}</text>'
        )

    # The lines: muted ones first, the highlighted one last (on top).
    order = [i for i in range(len(series)) if i != highlight]
    if highlight is not None:
        order.append(highlight)
    placed: list[tuple[float, float, float, float]] = []  # value label boxes
    label_order = ([highlight] if highlight is not None else []) + [
        i for i in range(len(series)) if i != highlight
    ]
    value_labels: dict[int, str] = {}
    for i in label_order:
        e = ends[i]
        if e is None:
            continue
        label = _place_value_label(
            end_texts[i], x_at(e), y_at(series[i].values[e]), placed, plot_top, plot_bottom
        )
        if label:
            value_labels[i] = label

    for i in order:
        s = series[i]
        if ends[i] is None:
            continue
        out.append(f'<g class="{_series_class(i, highlight)}" aria-hidden="true">')
        runs = _runs(s.values)
        parts = []
        for run in runs:
            pts = [f"{_n(x_at(j))} {_n(y_at(s.values[j]))}" for j in run]
            parts.append("M" + " L".join(pts) if len(pts) > 1 else f"M{pts[0]} h0")
        out.append(f'<path class="chart-line" d="{" ".join(parts)}"/>')
        for run in runs:
            j = run[0]
            if len(run) == 1 and j != ends[i]:
                out.append(
                    f'<circle class="chart-dot" cx="{_n(x_at(j))}" cy="{_n(y_at(s.values[j]))}" r="{_DOT_RADIUS}"/>'
                )
        e = ends[i]
        out.append(
            f'<circle class="chart-end" cx="{_n(x_at(e))}" cy="{_n(y_at(s.values[e]))}" r="{_END_RADIUS}"/>'
        )
        if i in value_labels:
            out.append(value_labels[i])
        out.append("</g>")

    # Legend below the plot.
    legend_top = label_y + 14
    legend, legend_height = _legend(series, highlight, legend_top)
    out.extend(legend)

    height = legend_top + legend_height + _PAD
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {_WIDTH} {_n(height)}" '
        f'role="img" aria-labelledby="{title_id} {desc_id}" id="{ident}">'
    )
    return "\n".join(
        [
            head,
            f'<title id="{title_id}">{_esc(title)}</title>',
            f'<desc id="{desc_id}">{_esc(description)}</desc>',
            *out,
            "</svg>",
        ]
    )


# ---- helpers ----------------------------------------------------------------------


def _check_lengths(x_labels: Sequence[str], series: Sequence[Series]) -> None:
    for s in series:
        if len(s.values) != len(x_labels):
            raise ValueError(
                f"series {s.label!r} has {len(s.values)} values for {len(x_labels)} x labels"
            )


def _esc(text: str) -> str:
    return html.escape(_XML_INVALID.sub("", text), quote=True)


def _clean(value: float) -> float:
    """Drop float noise (0.30000000000000004) and negative zero."""
    value = round(value, 10)
    return 0.0 if value == 0 else value


def _n(value: float) -> str:
    """A coordinate, at most one decimal, no trailing .0."""
    text = f"{value:.1f}"
    text = text.removesuffix(".0")
    return "0" if text == "-0" else text


def _width(text: str, font: float, em: float = _TEXT_EM) -> float:
    return len(text) * font * em


def _content_id(*parts: object) -> str:
    return "chart-" + hashlib.sha1(repr(parts).encode(), usedforsecurity=False).hexdigest()[:8]


def _series_class(i: int, highlight: int | None) -> str:
    cls = f"chart-series chart-series-{i % SERIES_CLASSES}"
    if highlight is not None:
        cls += " is-highlight" if i == highlight else " is-muted"
    return cls


def _last_index(values: Sequence[float | None]) -> int | None:
    for i in range(len(values) - 1, -1, -1):
        if values[i] is not None:
            return i
    return None


def _runs(values: Sequence[float | None]) -> list[list[int]]:
    """Indexes of consecutive non-None values."""
    runs: list[list[int]] = []
    current: list[int] = []
    for i, v in enumerate(values):
        if v is None:
            if current:
                runs.append(current)
            current = []
        else:
            current.append(i)
    if current:
        runs.append(current)
    return runs


def _x_label_positions(
    x_labels: Sequence[str], x_at: Callable[[int], float], plot_width: float
) -> list[tuple[int, float]]:
    """Which x labels to show (index, centre x): evenly spaced, counted back from the last."""
    n = len(x_labels)
    gap = 10
    widest = max(_width(str(label), _TICK_FONT) for label in x_labels)
    fit = int((plot_width + widest + gap) // (widest + gap))
    count = max(1, min(_MAX_X_LABELS, fit, n))
    stride = n if count == 1 else math.ceil((n - 1) / (count - 1))
    indexes = list(range(n - 1, -1, -stride))[::-1]
    # Keep labels inside the viewBox, then drop any that would still touch the
    # next one (going right to left, so the newest label always stays).
    boxes = []
    for i in indexes:
        w = _width(str(x_labels[i]), _TICK_FONT)
        cx = min(max(x_at(i), _PAD + w / 2), _WIDTH - _PAD - w / 2)
        boxes.append((i, cx, w))
    kept: list[tuple[int, float, float]] = []
    for i, cx, w in reversed(boxes):
        if kept and cx + w / 2 + gap > kept[-1][1] - kept[-1][2] / 2:
            continue
        kept.append((i, cx, w))
    return [(i, cx) for i, cx, _ in reversed(kept)]


def _place_value_label(
    text: str,
    x: float,
    y: float,
    placed: list[tuple[float, float, float, float]],
    plot_top: float,
    plot_bottom: float,
) -> str | None:
    """A last-value label right of its point (left if no room), if it fits without overlap."""
    w = _width(text, _VALUE_FONT, _BOLD_EM)
    h = _VALUE_FONT + 2
    offset = _END_RADIUS + 4
    sides = []
    if x + offset + w <= _WIDTH - 1:
        sides.append(("start", x + offset, x + offset))
    if x - offset - w >= 1:
        sides.append(("end", x - offset - w, x - offset))
    # Prefer the right side (the line comes from the left), nudged up or down.
    for anchor, left, tx in sides:
        for dy in (0, -h / 2, h / 2, -h, h):
            cy = y + dy
            if cy - h / 2 < plot_top - 12 or cy + h / 2 > plot_bottom + 6:
                continue
            box = (left, cy - h / 2, left + w, cy + h / 2)
            if any(_overlap(box, other) for other in placed):
                continue
            placed.append(box)
            cls = "chart-value" if anchor == "start" else "chart-value chart-anchor-end"
            return f'<text class="{cls}" x="{_n(tx)}" y="{_n(cy)}" dy="0.35em">{_esc(text)}</text>'
    return None


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _legend(series: Sequence[Series], highlight: int | None, top: float) -> tuple[list[str], float]:
    """Swatches and names in a grid of equal columns below the plot."""
    avail = _WIDTH - 2 * _PAD
    text_x = _SWATCH + 6
    col_gap = 14
    widest = max(text_x + _width(s.label, _LEGEND_FONT) for s in series)
    cols = max(1, min(len(series), int((avail + col_gap) // (min(widest, avail) + col_gap))))
    col_w = (avail + col_gap) / cols
    max_text = col_w - col_gap - text_x
    rows = math.ceil(len(series) / cols)
    out = ['<g class="chart-legend" aria-hidden="true">']
    for i, s in enumerate(series):
        row, col = divmod(i, cols)
        x = _PAD + col * col_w
        cy = top + row * _LEGEND_ROW + _LEGEND_ROW / 2
        cls = _series_class(i, highlight)
        out.append(f'<g class="{cls}">')
        out.append(
            f'<line class="chart-swatch" x1="{_n(x + 1)}" y1="{_n(cy)}" x2="{_n(x + _SWATCH - 1)}" y2="{_n(cy)}"/>'
        )
        out.append(
            f'<text class="chart-legend-text" x="{_n(x + text_x)}" y="{_n(cy)}" dy="0.35em">'
            f"{_esc(_truncate(s.label, max_text, _LEGEND_FONT))}</text>"
        )
        out.append("</g>")
    out.append("</g>")
    return out, rows * _LEGEND_ROW


def _truncate(text: str, max_width: float, font: float) -> str:
    if _width(text, font) <= max_width:
        return text
    keep = max(1, int(max_width // (font * _TEXT_EM)) - 1)
    return text[:keep].rstrip() + "…"
