import { describe, expect, it } from "vitest";
import { bodyText as body, prose } from "../../support/article-html";

describe("BodyRenderer: blocks inside the container", () => {
  it("leaves out an image's caption written as a plain block beside it (no caption class)", () => {
    const text = body(
      `<article>${prose("One", 2)}<div class="w-full"><img src="a.jpg" alt=""><div class="ml-3">The head teacher met only 14 of 75 pupils on Monday © School archive</div></div>${prose("Two", 2)}</article>`,
    );
    expect(text).toContain("Two paragraph 2");
    expect(text).not.toContain("head teacher");
  });

  it("keeps a block of prose that has an image beside it", () => {
    const text = body(
      `<article>${prose("One", 2)}<div><img src="a.jpg" alt=""><p>The head teacher met only 14 of 75 pupils on Monday, and said the week would be quiet.</p></div>${prose("Two", 2)}</article>`,
    );
    expect(text).toContain("head teacher");
  });
});

describe("BodyRenderer: inline whitespace on pages written without spaces", () => {
  const jaProse = (n: number): string =>
    Array.from(
      { length: n },
      (_, i) =>
        `<p>第${i + 1}段落です。市議会は火曜日に会合を開き、住民の意見を聞いたうえで、来月に報告書の全文を公表することを決めました。</p>`,
    ).join("");

  it("leaves out ruby annotations (furigana) instead of joining them to the word they gloss", () => {
    const text = body(
      `<article>${jaProse(3)}<p><ruby>子<rt>こ</rt></ruby>どもへの<ruby>虐待<rp>(</rp><rt>ぎゃくたい</rt><rp>)</rp></ruby>をなくすための法律ができました。</p></article>`,
    );
    expect(text).toContain("子どもへの虐待をなくすための法律ができました。");
  });

  it("does not join the words on either side of a block it leaves out (no space on pages written without)", () => {
    const text = body(
      `<article>${jaProse(3)}<div>東京都の新しい条例について市の担当者が会見で詳しく説明した<div class="ad-slot"><p>広告</p></div>知事は来週の議会で改めて説明する方針を示した</div></article>`,
    );
    expect(text).toContain("詳しく説明した\n\n知事は来週の議会で");
  });

  it("keeps the space a source line break makes, as browsers render it, in Japanese, Korean and Latin text", () => {
    const text = body(
      `<article>${jaProse(3)}<p>ないでしょうか。\r\nシステム設計には<a href="/k">新しい</a>\n条例が要る。서울시는 <a href="/k">새 조례를</a>\n발표했다. The <i>new</i>\nrule applies.</p></article>`,
    );
    expect(text).toContain(
      "ないでしょうか。 システム設計には新しい 条例が要る。서울시는 새 조례를 발표했다. The new rule applies.",
    );
  });
});

describe("BodyRenderer: headings that end the text", () => {
  const links = `<ul>${[1, 2, 3, 4].map((i) => `<li><a href="/s${i}">Another story number ${i} from the desk</a></li>`).join("")}</ul>`;

  it("leaves out a heading (or a bold line) whose section was left out", () => {
    const text = body(
      `<article>${prose("One", 3)}<h2>Das könnte dich auch interessieren</h2>${links}<p><strong>Schon gesehen?</strong></p></article>`,
    );
    expect(text).toContain("One paragraph 3");
    expect(text).not.toContain("interessieren");
    expect(text).not.toContain("Schon gesehen");
  });

  it("keeps a closing sentence set as a heading or in bold, and headings inside the text", () => {
    const text = body(
      `<article><h2>How it began</h2>${prose("One", 3)}<p><b>The interview was conducted by Jane Doe.</b></p></article>`,
    );
    expect(text).toContain("How it began");
    expect(text).toContain("The interview was conducted by Jane Doe.");
  });

  it("leaves out a run of headings that ends the text, and a bold call to action", () => {
    const text = body(
      `<article>${prose("One", 3)}<p><strong><em>Liked this story? Tell a friend!</em></strong></p><div id="respond"><h2>Kommentieren</h2><h3>Sie müssen sich <a href="/login">einloggen</a>, um mitzudiskutieren.</h3></div></article>`,
    );
    expect(text).toContain("One paragraph 3");
    expect(text).not.toContain("Liked this story");
    expect(text).not.toContain("Kommentieren");
    expect(text).not.toContain("einloggen");
  });
});

describe("BodyRenderer: blocks holding a form", () => {
  it("leaves out a block with a form that asks for text (comments, sign-up), whatever its language", () => {
    const text = body(
      `<article>${prose("One", 3)}<section class="kommentare"><p>Noch keine Beiträge, die Redaktion schaltet sie nach Prüfung frei.</p><form action="/c"><textarea name="c"></textarea><button>Senden</button></form></section>${prose("Two", 1)}</article>`,
    );
    expect(text).toContain("Two paragraph 1");
    expect(text).not.toContain("Noch keine Beiträge");
  });

  it("keeps a block whose form is a calculator (a number field)", () => {
    const text = body(
      `<article>${prose("One", 3)}<section class="ingredients"><form><input type="text" name="portions" value="4"></form><p>For four portions you need 500 g of flour, 350 g of sugar and a litre of milk.</p></section>${prose("Two", 1)}</article>`,
    );
    expect(text).toContain("500 g of flour");
  });
});

describe("BodyRenderer: block-level elements end a paragraph", () => {
  it("does not join the text before a page-wide <form> to the first words inside it", () => {
    const lines = Array.from(
      { length: 4 },
      (_, i) =>
        `Line ${i + 1}: the council met on Tuesday, heard from residents, and agreed to publish the report.`,
    ).join("<br>");
    const text = body(`<div>Council report<form id="page" action="/x">${lines}</form></div>`);
    expect(text).toContain("Council report\n\nLine 1:");
  });
});

describe("BodyRenderer: fine print after the text", () => {
  it("leaves out paragraphs in small type that end the text (<small>, a small font size)", () => {
    const text = body(
      `<article>${prose("One", 3)}<p><small>The company employs 24,000 people and supplies energy to 5.5 million customers.</small></p><p style="font-size: 12px">Sources: annual report 2019, page 12.</p></article>`,
    );
    expect(text).toContain("One paragraph 3");
    expect(text).not.toContain("24,000 people");
    expect(text).not.toContain("annual report");
  });

  it("keeps small type that sits inside the text", () => {
    const text = body(
      `<article>${prose("One", 2)}<p><small>A note in small type between two paragraphs of the article.</small></p>${prose("Two", 1)}</article>`,
    );
    expect(text).toContain("A note in small type");
  });
});

describe("BodyRenderer: a box set off by a rule after the text", () => {
  it("leaves out short paragraphs after the last <hr> (more stories, citation, copyright)", () => {
    const text = body(
      `<article>${prose("One", 6)}<hr><p>Citation: Council report (2019, October 22), retrieved 20 January 2020.</p><p>This document is subject to copyright; no part may be reproduced without permission.</p></article>`,
    );
    expect(text).toContain("One paragraph 6");
    expect(text).not.toContain("Citation:");
    expect(text).not.toContain("subject to copyright");
  });

  it("keeps the text after a rule that divides the article itself, and a single line after a rule", () => {
    const two = body(`<article>${prose("One", 2)}<hr>${prose("Two", 2)}</article>`);
    expect(two).toContain("Two paragraph 2");
    const one = body(
      `<article>${prose("One", 4)}<hr><p>View the latest deals on the city's shops.</p></article>`,
    );
    expect(one).toContain("View the latest deals");
  });
});
