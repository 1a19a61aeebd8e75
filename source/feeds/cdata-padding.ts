// feedsmith pretty-prints (fast-xml-parser's `format: true`, not an option it exposes), and puts
// a CDATA section on a line of its own: `<description>\n        <![CDATA[…]]>\n      </description>`.
// The white space around the section is part of the element's text, so a reader stores a body that
// starts with a newline and spaces. The section's markers are only ever written by the builder:
// the HTML inside was sanitised, so a `<` of its own is `&lt;`, and `]]>` can only end a section.
const BEFORE_SECTION = />\n[ \t]*<!\[CDATA\[/g;
const AFTER_SECTION = /\]\]>\n[ \t]*<\//g;

/** A document from feedsmith with each CDATA section flush against its element's tags. */
export function withoutCdataPadding(xml: string): string {
  return xml.includes('<![CDATA[') ? xml.replace(BEFORE_SECTION, '><![CDATA[').replace(AFTER_SECTION, ']]></') : xml;
}
