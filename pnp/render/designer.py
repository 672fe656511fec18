"""The designer's report: what the player edition leaves out. Every decision of the edition
with its id, the ruling, and why (how it was found and measured); the decisions that are about
the software or the balance in full. The kit's read-me and rulebook give players the rulings
in plain words only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import SimpleDocTemplate

from pnp.content.prose import join_cjk, render_prose
from pnp.output import atomic_output
from pnp.render.fonts import FontSet
from pnp.render.text import CJKParagraph as Paragraph
from pnp.units import mm


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def render_designer_report(
    path: Path, model: Any, *, paper: tuple[float, float], fonts: FontSet
) -> None:
    info = model.info
    body = ParagraphStyle("body", fontName=fonts.regular, fontSize=9.5, leading=14, wordWrap="CJK")
    small = ParagraphStyle("small", parent=body, fontSize=8.5, leading=12, leftIndent=mm(4))
    title = ParagraphStyle("title", parent=body, fontName=fonts.bold, fontSize=18, leading=24)
    heading = ParagraphStyle(
        "heading",
        parent=body,
        fontName=fonts.bold,
        fontSize=11,
        leading=16,
        spaceBefore=8,
        spaceAfter=2,
        keepWithNext=1,
    )
    context = {"game": model}
    story: list[Any] = [
        Paragraph(_escape(f"{info.title} · 设计者报告"), title),
        Paragraph(
            "本版的每一项裁定（带编号）、裁定的理由与测量方法，以及只关于软件和平衡的裁定。"
            "玩家版的说明书和规则书只用平实的话写出裁定本身。",
            body,
        ),
    ]
    for decision in getattr(model, "decisions", ()):
        question = join_cjk(render_prose(decision.question, context, decision.where))
        answer = join_cjk(render_prose(decision.answer, context, decision.where))
        audience = "仅设计者" if decision.designer else "玩家版印出"
        story.append(Paragraph(_escape(f"{decision.id}（{audience}）"), heading))
        story.append(Paragraph(f"<b>{_escape(question)}</b> {_escape(answer)}", body))
        if decision.reason:
            reason = join_cjk(render_prose(decision.reason, context, decision.where))
            story.append(Paragraph(_escape(f"理由：{reason}"), small))
    with atomic_output(path) as temporary:
        document = SimpleDocTemplate(
            str(temporary),
            pagesize=paper,
            leftMargin=mm(15),
            rightMargin=mm(15),
            topMargin=mm(15),
            bottomMargin=mm(15),
            title=f"{info.title} · 设计者报告",
            author="pnp",
            creator="pnp",
            invariant=1,
            initialFontName=fonts.regular,
        )
        document.build(story)
