"""Emoji drawn as inline pictures on pages (no emoji font needed), never inside a tag or a title."""

from __future__ import annotations

from bot.web.icons import icon, pictured


def test_an_emoji_in_text_is_a_named_picture_and_suits_stay_letters() -> None:
    page = '<html><head><title>🏆 Ada</title></head><body class="x"><p>🏆 Ada wins with Q♠!</p></body></html>'
    drawn = pictured(page)
    assert '<svg class="icon" role="img" aria-label="trophy" viewBox="0 0 16 16">' in drawn
    assert "<title>🏆 Ada</title>" in drawn, "a title holds no markup: left as it was"
    assert "Ada wins with Q♠!" in drawn and "🏆" not in drawn.split("<body", 1)[1]


def test_attributes_scripts_and_options_are_left_alone() -> None:
    page = '<body><img alt="🔒 sealed"><script>let s = "🏁";</script><select><option>🥒</option></select>🥒</body>'
    drawn = pictured(page)
    assert '<img alt="🔒 sealed">' in drawn and 'let s = "🏁";' in drawn and "<option>🥒</option>" in drawn
    assert drawn.endswith(icon("🥒") + "</body>") and 'aria-label="cucumber"' in drawn


def test_an_emoji_with_no_picture_is_said_in_words() -> None:
    assert (
        pictured("<body>🦄 and ✅\ufe0f</body>")
        == f'<body><span class="icon-word">[unicorn face]</span> and {icon("✅")}</body>'
    )
