"""Point labels on matplotlib plots, moved apart where they would overlap.

adjustText does the moving; it pulls in scipy (about 140 MB), so it is the optional extra
``topolab[labels]``. Without it every label sits just above and right of its point, where
labels of close points may overlap but never hide a marker.
"""

from __future__ import annotations

from typing import Any, Sequence

# Offset of an unmoved label from its point, in typographic points.
FALLBACK_OFFSET_POINTS = 4.0


def spread_labels(texts: list[Any], ax: Any, x: Sequence[float], y: Sequence[float], **adjust: Any) -> None:
    """Moves ``texts`` (matplotlib Text objects placed at their points ``x``, ``y``) apart with
    adjustText and ``adjust`` as its keyword arguments, or offsets them when it is missing."""
    if not texts:
        return
    try:
        from adjustText import adjust_text
    except ImportError:
        from matplotlib.transforms import ScaledTranslation

        shift = ScaledTranslation(
            FALLBACK_OFFSET_POINTS / 72, FALLBACK_OFFSET_POINTS / 72, ax.figure.dpi_scale_trans
        )
        for text in texts:
            text.set_transform(text.get_transform() + shift)
            text.set_horizontalalignment("left")
            text.set_verticalalignment("bottom")
        return
    adjust_text(texts, ax=ax, x=x, y=y, **adjust)
