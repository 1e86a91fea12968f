import { describe, expect, it } from "vitest";
import type { GlossaryTerm, LanguagePair } from "@tafsiri/domain";
import { FormatError } from "../src/translation/formats/format-error";
import { readTmx, sameLanguage, writeTmx, type MemoryUnit } from "../src/translation/formats/tmx";
import { readTbx, writeTbx } from "../src/translation/formats/tbx";
import { readGlossaryCsv, writeGlossaryCsv } from "../src/translation/formats/glossary-csv";

/** The translation file formats of decision 035: TMX, TBX, glossary CSV/TSV. No database. */

const PAIR: LanguagePair = { source: "eng", target: "swa" };

/** The FormatError message a call throws (fails the test when it throws nothing or something else). */
function formatErrorOf(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(FormatError);
    return (error as FormatError).message;
  }
  throw new Error("expected a FormatError");
}

/** An entity bomb: refused for its DOCTYPE before anything is expanded. */
const ENTITY_BOMB = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<tmx version="1.4"><body><tu><tuv xml:lang="en"><seg>&lol2;</seg></tuv></tu></body></tmx>`;

describe("sameLanguage", () => {
  it("compares tags loosely: case, region and script subtags, ISO 639-1 and 639-3", () => {
    expect(sameLanguage("en-GB", "eng")).toBe(true);
    expect(sameLanguage("EN_us", "en")).toBe(true);
    expect(sameLanguage("SW", "swa")).toBe(true);
    expect(sameLanguage("sw-KE", "swa")).toBe(true);
    expect(sameLanguage("zh-Hans-CN", "zho")).toBe(true);
    expect(sameLanguage("lg", "lug")).toBe(true);
    expect(sameLanguage("fre", "fr-FR")).toBe(true);
    expect(sameLanguage("ach", "ach")).toBe(true);
    expect(sameLanguage("en", "swa")).toBe(false);
    expect(sameLanguage("", "")).toBe(false);
  });
});

describe("TMX", () => {
  const units: MemoryUnit[] = [
    {
      source: `Tell me about "your" mother & <father>, it's fine.`,
      target: "Niambie kuhusu mama yako na baba yako.",
      sourceLanguage: "eng",
      targetLanguage: "swa",
      id: "3f1c2a9e-0000-4000-8000-000000000001",
      createdAt: new Date("2024-05-06T07:08:09Z"),
      creator: "amina@example.org",
      note: "Reviewer: keep the hesitation.\nSecond line.",
      props: { speaker: "INV", recording: "rec-12", group: "Dementia" },
    },
    {
      source: "  &-uh I don't remember (.) xxx  ",
      target: "Line one\nline two\r\nand a tab\there 🙂",
      sourceLanguage: "eng",
      targetLanguage: "swa",
    },
  ];

  it("writes the header with all required attributes and one tu per unit", () => {
    const xml = writeTmx(units, PAIR);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">')).toBe(true);
    expect(xml).toContain(
      '<header creationtool="Tafsiri" creationtoolversion="1.0" segtype="sentence" o-tmf="Tafsiri" adminlang="en" srclang="eng" datatype="plaintext"/>',
    );
    expect(xml).toContain(
      '<tu tuid="3f1c2a9e-0000-4000-8000-000000000001" creationdate="20240506T070809Z" creationid="amina@example.org">',
    );
    expect(xml).toContain('<prop type="x-speaker">INV</prop>');
    expect(xml).toContain('<tuv xml:lang="eng">');
    expect(xml).toContain('<tuv xml:lang="swa">');
    expect(xml).toContain("<seg>Tell me about &quot;your&quot; mother &amp; &lt;father&gt;, it&apos;s fine.</seg>");
    expect(xml.match(/<tu[ >]/g)).toHaveLength(2);
    expect(writeTmx([], PAIR, { name: "Tafsiri", version: "2.3.0" })).toContain('creationtoolversion="2.3.0"');
  });

  it("reads back what it writes", () => {
    expect(readTmx(writeTmx(units, PAIR), PAIR)).toEqual(units);
  });

  it("refuses to write a unit of another pair", () => {
    const french = { ...units[1]!, targetLanguage: "fra" };
    expect(formatErrorOf(() => writeTmx([units[0]!, french], PAIR))).toBe("Unit 2: it is eng to fra, not eng to swa.");
  });

  it("reads OmegaT's project TMX: upper-case region tags, provenance on the target tuv", () => {
    const omegat = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4">
  <header creationtool="OmegaT" o-tmf="OmegaT TMX" adminlang="EN-US" datatype="plaintext" creationtoolversion="6.0.1_0_1b3e6ec3" segtype="sentence" srclang="EN-GB"/>
  <body>
<!-- Default translations -->
    <tu>
      <tuv xml:lang="EN-GB">
        <seg>Good morning.</seg>
      </tuv>
      <tuv xml:lang="SW" changeid="juma" changedate="20230102T030405Z" creationid="juma" creationdate="20230101T101112Z">
        <seg>Habari za asubuhi.</seg>
      </tuv>
    </tu>
    <tu>
      <tuv xml:lang="EN-GB">
        <seg>Only English here.</seg>
      </tuv>
    </tu>
  </body>
</tmx>`;
    expect(readTmx(omegat, PAIR)).toEqual([
      {
        source: "Good morning.",
        target: "Habari za asubuhi.",
        sourceLanguage: "eng",
        targetLanguage: "swa",
        createdAt: new Date("2023-01-01T10:11:12Z"),
        creator: "juma",
      },
    ]);
  });

  it("reads Weblate's TMX (Translate Toolkit), in either direction of the pair", () => {
    const weblate = `<?xml version='1.0' encoding='utf-8'?>
<tmx version="1.4"><header adminlang="en" creationtool="Translate Toolkit" creationtoolversion="3.13.0" datatype="PlainText" o-tmf="UTF-8" segtype="sentence" srclang="sw"/><body><tu><tuv xml:lang="sw"><seg>Asante sana</seg></tuv><tuv xml:lang="en"><seg>Thank you very much</seg></tuv><note>Greeting</note></tu></body></tmx>`;
    expect(readTmx(weblate, PAIR)).toEqual([
      {
        source: "Thank you very much",
        target: "Asante sana",
        sourceLanguage: "eng",
        targetLanguage: "swa",
        note: "Greeting",
      },
    ]);
  });

  it("reads memoQ's TMX: inline codes left out, <hi> kept as text, props without x-", () => {
    const memoq = `<?xml version="1.0" encoding="utf-8"?>
<tmx version="1.4">
  <header creationtool="memoQ" creationtoolversion="10.4.12" segtype="sentence" o-tmf="memoQTM" adminlang="en-us" srclang="en-gb" datatype="unknown">
    <prop type="defclient">Clinic</prop>
  </header>
  <body>
    <tu changedate="20240101T000000Z" creationdate="20231231T235959Z" creationid="PC\\Wanjiru" changeid="PC\\Wanjiru">
      <prop type="client">Clinic</prop>
      <prop type="x-document">interview-07.docx</prop>
      <tuv xml:lang="en-gb">
        <prop type="x-context-pre">...</prop>
        <seg>Click <bpt i="1" type="bold">{}</bpt>here<ept i="1">{}</ept> to <hi type="em">start</hi>.<ph x="2">&lt;br/&gt;</ph></seg>
      </tuv>
      <tuv xml:lang="sw-ke">
        <seg>Bofya <bpt i="1" type="bold">{}</bpt>hapa<ept i="1">{}</ept> ili <hi>kuanza</hi>.</seg>
      </tuv>
    </tu>
  </body>
</tmx>`;
    expect(readTmx(memoq, PAIR)).toEqual([
      {
        source: "Click here to start.",
        target: "Bofya hapa ili kuanza.",
        sourceLanguage: "eng",
        targetLanguage: "swa",
        createdAt: new Date("2023-12-31T23:59:59Z"),
        creator: "PC\\Wanjiru",
        props: { client: "Clinic", document: "interview-07.docx" },
      },
    ]);
  });

  it("decodes character references, keeps CDATA as written, and skips other languages and empty segments", () => {
    const xml = `<tmx version="1.4"><header/><body>
<tu tuid="a"><tuv lang="en"><seg>caf&#233; &#x1F642; &amp;amp;</seg></tuv><tuv lang="sw"><seg><![CDATA[<raw> &amp; kept]]></seg></tuv></tu>
<tu tuid="b"><tuv xml:lang="en"><seg>French only</seg></tuv><tuv xml:lang="fr"><seg>Seulement</seg></tuv></tu>
<tu tuid="c"><tuv xml:lang="en"><seg>Empty</seg></tuv><tuv xml:lang="sw"><seg>  </seg></tuv></tu>
<tu tuid="d"><tuv xml:lang="en"><seg>No seg</seg></tuv><tuv xml:lang="sw"/></tu>
</body></tmx>`;
    expect(readTmx(xml, PAIR)).toEqual([
      { id: "a", source: "café 🙂 &amp;", target: "<raw> &amp; kept", sourceLanguage: "eng", targetLanguage: "swa" },
    ]);
  });

  it("refuses what is not TMX, broken XML, a DOCTYPE and input over 20 MB", () => {
    expect(formatErrorOf(() => readTmx("<martif/>", PAIR))).toBe("This is not a TMX file: no <tmx> element.");
    expect(formatErrorOf(() => readTmx('<tmx version="1.4"><header/></tmx>', PAIR))).toBe(
      "This TMX file has no <body> element.",
    );
    expect(formatErrorOf(() => readTmx("<tmx>\n<body>\n<tu></body></tmx>", PAIR))).toMatch(
      /^This is not well-formed XML: line 3: /,
    );
    expect(formatErrorOf(() => readTmx(ENTITY_BOMB, PAIR))).toMatch(/DOCTYPE/);
    const huge = `<tmx><body>${"x".repeat(20 * 1024 * 1024)}</body></tmx>`;
    expect(formatErrorOf(() => readTmx(huge, PAIR))).toBe("This file is too large: 20.1 MB, over the limit of 20 MB.");
    expect(formatErrorOf(() => readTmx(" \n", PAIR))).toBe("This file is empty.");
  });
});

describe("TBX", () => {
  const terms: GlossaryTerm[] = [
    { sourceTerm: "memory clinic", targetTerm: "kliniki ya kumbukumbu", note: "Use in the consent form." },
    { sourceTerm: "Alzheimer's & <dementia>", targetTerm: 'ugonjwa wa "kusahau"', note: "" },
    { sourceTerm: "carer", targetTerm: "mlezi", note: "Line one\nline two" },
  ];

  it("writes TBX-Basic v3 with a conceptEntry per term and the note as <note>", () => {
    const xml = writeTbx(terms, PAIR);
    expect(xml).toContain('<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">');
    expect(xml).toContain('<conceptEntry id="c1">\n        <note>Use in the consent form.</note>');
    expect(xml).toContain('<langSec xml:lang="eng">');
    expect(xml).toContain('<langSec xml:lang="swa">');
    expect(xml).toContain("<term>Alzheimer&apos;s &amp; &lt;dementia&gt;</term>");
    expect(xml.match(/<conceptEntry /g)).toHaveLength(3);
    expect(xml.match(/<note>/g)).toHaveLength(2);
  });

  it("reads back what it writes", () => {
    expect(readTbx(writeTbx(terms, PAIR), PAIR)).toEqual(terms);
    expect(readTbx(writeTbx([], PAIR), PAIR)).toEqual([]);
  });

  it("reads memoQ's TBX v2: langSet/tig, descrip as note, first term of each language", () => {
    const memoq = `<?xml version="1.0" encoding="utf-8"?>
<martif type="TBX" xml:lang="en-us">
  <martifHeader>
    <fileDesc><sourceDesc><p>memoQ termbase export</p></sourceDesc></fileDesc>
  </martifHeader>
  <text>
    <body>
      <termEntry id="_1">
        <descrip type="Definition">A loss of memory.</descrip>
        <langSet xml:lang="en-gb">
          <descrip type="Definition">English definition.</descrip>
          <tig><term>memory loss</term><termNote type="partOfSpeech">noun</termNote></tig>
          <tig><term>forgetfulness</term></tig>
        </langSet>
        <langSet xml:lang="fr"><tig><term>perte de mémoire</term></tig></langSet>
        <langSet xml:lang="sw"><tig><term>kupoteza kumbukumbu</term></tig></langSet>
      </termEntry>
      <termEntry id="_2">
        <langSet xml:lang="en-gb"><tig><term>English only</term></tig></langSet>
      </termEntry>
    </body>
  </text>
</martif>`;
    expect(readTbx(memoq, PAIR)).toEqual([
      {
        sourceTerm: "memory loss",
        targetTerm: "kupoteza kumbukumbu",
        note: "A loss of memory.\nEnglish definition.",
      },
    ]);
  });

  it("reads Weblate's TBX (Translate Toolkit) and TBX-Basic 2008 ntig/termGrp as OmegaT reads it", () => {
    const weblate = `<?xml version='1.0' encoding='UTF-8'?>
<!-- Weblate glossary -->
<martif xmlns="http://www.lisa.org/TBX-Specification.33.0.html" type="TBX" xml:lang="en">
<martifHeader><fileDesc><sourceDesc><p>Translate Toolkit</p></sourceDesc></fileDesc></martifHeader>
<text><body>
<termEntry id="caregiver"><langSet xml:lang="en"><tig><term>caregiver</term></tig></langSet><langSet xml:lang="sw"><tig><term>mhudumu</term></tig></langSet><note from="translator">Not "nurse".</note></termEntry>
<termEntry id="e2"><langSet xml:lang="en"><ntig><termGrp><term>  hearing aid </term></termGrp></ntig></langSet><langSet xml:lang="sw"><ntig><termGrp><term>kifaa cha kusikia</term></termGrp></ntig></langSet></termEntry>
</body></text></martif>`;
    expect(readTbx(weblate, PAIR)).toEqual([
      { sourceTerm: "caregiver", targetTerm: "mhudumu", note: 'Not "nurse".' },
      { sourceTerm: "hearing aid", targetTerm: "kifaa cha kusikia", note: "" },
    ]);
  });

  it("reads TBX v3 from another tool: descripGrp, termNote, other languages' notes left out", () => {
    const v3 = `<?xml version="1.0" encoding="UTF-8"?>
<?xml-model href="https://raw.githubusercontent.com/LTAC-Global/TBX-Basic_dialect/master/DCA/TBXcoreStructV03_TBX-Basic_integrated.rng" type="application/xml" schematypens="http://relaxng.org/ns/structure/1.0"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
  <tbxHeader><fileDesc><sourceDesc><p>Clinic glossary</p></sourceDesc></fileDesc></tbxHeader>
  <text><body>
    <conceptEntry id="c7">
      <descripGrp><descrip type="definition">Test of memory</descrip></descripGrp>
      <langSec xml:lang="de"><note>Nur Deutsch.</note><termSec><term>Gedächtnistest</term></termSec></langSec>
      <langSec xml:lang="sw-TZ">
        <termSec><term>jaribio la kumbukumbu</term><termNote type="administrativeStatus">preferredTerm-admn-sts</termNote></termSec>
      </langSec>
      <langSec xml:lang="en-US">
        <termSec><term>memory test</term><note>Say it slowly.</note></termSec>
      </langSec>
    </conceptEntry>
  </body></text>
</tbx>`;
    expect(readTbx(v3, PAIR)).toEqual([
      { sourceTerm: "memory test", targetTerm: "jaribio la kumbukumbu", note: "Test of memory\nSay it slowly." },
    ]);
  });

  it("drops exact duplicates and refuses what is not TBX, a DOCTYPE and a missing body", () => {
    const twice = writeTbx([terms[0]!, terms[0]!, terms[2]!], PAIR);
    expect(readTbx(twice, PAIR)).toEqual([terms[0], terms[2]]);
    expect(formatErrorOf(() => readTbx("<tmx/>", PAIR))).toBe("This is not a TBX file: no <tbx> or <martif> element.");
    expect(formatErrorOf(() => readTbx('<martif type="TBX"><text/></martif>', PAIR))).toBe(
      "This TBX file has no <text><body> element.",
    );
    expect(formatErrorOf(() => readTbx(ENTITY_BOMB.replace(/tmx/g, "martif"), PAIR))).toMatch(/DOCTYPE/);
  });

  it("refuses more than 10,000 terms", () => {
    const many = Array.from({ length: 10_001 }, (_, i) => ({ sourceTerm: `t${i}`, targetTerm: `n${i}`, note: "" }));
    expect(readTbx(writeTbx(many.slice(0, 10_000), PAIR), PAIR)).toHaveLength(10_000);
    expect(formatErrorOf(() => readTbx(writeTbx(many, PAIR), PAIR))).toBe(
      "This glossary has more than 10,000 terms: split it into files of at most 10,000.",
    );
  });
});

describe("glossary CSV", () => {
  const terms: GlossaryTerm[] = [
    { sourceTerm: "memory clinic", targetTerm: "kliniki ya kumbukumbu", note: "" },
    { sourceTerm: "Alzheimer's, early", targetTerm: 'ugonjwa wa "kusahau"', note: "Two lines:\nsecond, with a comma" },
    { sourceTerm: "=SUM(A1)", targetTerm: "kifaa", note: "Tab\there" },
  ];

  it("writes the header source,target,note and reads back what it writes", () => {
    const csv = writeGlossaryCsv(terms);
    expect(csv.startsWith("source,target,note\r\nmemory clinic,kliniki ya kumbukumbu,\r\n")).toBe(true);
    expect(csv).toContain('"Alzheimer\'s, early","ugonjwa wa ""kusahau""","Two lines:\nsecond, with a comma"');
    expect(readGlossaryCsv(csv)).toEqual(terms);
    expect(readGlossaryCsv(writeGlossaryCsv([]))).toEqual([]);
  });

  it("reads the header in any order and case, source_term/target_term, and Weblate's columns", () => {
    expect(readGlossaryCsv("\uFEFFNote,TARGET,Source\n,mlezi,carer\nKind word,asante,thanks\n")).toEqual([
      { sourceTerm: "carer", targetTerm: "mlezi", note: "" },
      { sourceTerm: "thanks", targetTerm: "asante", note: "Kind word" },
    ]);
    expect(readGlossaryCsv("source_term,target_term,note\r\n carer , mlezi ,\r\n")).toEqual([
      { sourceTerm: "carer", targetTerm: "mlezi", note: "" },
    ]);
    const weblate =
      '"location","source","target","id","fuzzy","context","translator_comments","developer_comments"\r\n' +
      '"","caregiver","mhudumu","","False","","Not nurse",""\r\n';
    expect(readGlossaryCsv(weblate)).toEqual([{ sourceTerm: "caregiver", targetTerm: "mhudumu", note: "Not nurse" }]);
  });

  it("reads OmegaT's tab-separated glossary: no header, # lines ignored, comment optional", () => {
    const omegat =
      "# Glossary in tab-separated format -*- coding: utf-8 -*-\r\n" +
      "memory\tkumbukumbu\tnoun\r\n" +
      "\r\n" +
      "carer\tmlezi\r\n" +
      'say "hello"\tsema "habari"\tno quoting, a, comma\r\n';
    expect(readGlossaryCsv(omegat)).toEqual([
      { sourceTerm: "memory", targetTerm: "kumbukumbu", note: "noun" },
      { sourceTerm: "carer", targetTerm: "mlezi", note: "" },
      { sourceTerm: 'say "hello"', targetTerm: 'sema "habari"', note: "no quoting, a, comma" },
    ]);
    expect(readGlossaryCsv("source\ttarget\tnote\nmemory\tkumbukumbu\t\n")).toEqual([
      { sourceTerm: "memory", targetTerm: "kumbukumbu", note: "" },
    ]);
  });

  it("refuses an empty source or target term, naming the line", () => {
    expect(formatErrorOf(() => readGlossaryCsv("source,target,note\na,b,\nc,d,\n,e,\n"))).toBe(
      "Line 4: the source term is empty.",
    );
    expect(formatErrorOf(() => readGlossaryCsv('source,target,note\n"a\nb",c,\nd,  ,x\n'))).toBe(
      "Line 4: the target term is empty.",
    );
    expect(formatErrorOf(() => readGlossaryCsv("memory\tkumbukumbu\n# note\ncarer\n"))).toBe(
      "Line 3: the target term is empty.",
    );
  });

  it("drops exact duplicate rows and blank rows", () => {
    const csv = "source,target,note\nmemory,kumbukumbu,\n,,\nmemory,kumbukumbu,\nmemory,kumbukumbu,noun\n";
    expect(readGlossaryCsv(csv)).toEqual([
      { sourceTerm: "memory", targetTerm: "kumbukumbu", note: "" },
      { sourceTerm: "memory", targetTerm: "kumbukumbu", note: "noun" },
    ]);
    expect(readGlossaryCsv("")).toEqual([]);
  });

  it("refuses a CSV without header, a quote left open, and more than 10,000 terms", () => {
    expect(formatErrorOf(() => readGlossaryCsv("memory,kumbukumbu,noun\n"))).toBe(
      "Line 1: the first row must be the header source,target,note (only a tab-separated file, as OmegaT writes, may go without one).",
    );
    expect(formatErrorOf(() => readGlossaryCsv('source,target\nok,sawa\n"open,x\n'))).toMatch(/^Line 3: /);
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `t${i}\tn${i}`).join("\n");
    expect(readGlossaryCsv(rows(10_000))).toHaveLength(10_000);
    expect(formatErrorOf(() => readGlossaryCsv(rows(10_001)))).toBe(
      "This glossary has more than 10,000 terms: split it into files of at most 10,000.",
    );
    expect(formatErrorOf(() => readGlossaryCsv("a\tb\n".repeat(6 * 1024 * 1024)))).toBe(
      "This file is too large: 24.0 MB, over the limit of 20 MB.",
    );
  });
});
