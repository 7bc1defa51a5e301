import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml, html, trusted } from '../../src/web/html';

describe('the html template', () => {
  test('escapes every interpolated string: markup, quotes and backticks', () => {
    const hostile = `<script>alert("x")</script><img src=x onerror='y'>\``;
    const out = html`<p title="${hostile}">${hostile}</p>`.value;
    assert.doesNotMatch(out, /<script|<img/);
    assert.equal(
      out,
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;y&#39;&gt;&#96;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;y&#39;&gt;&#96;</p>',
    );
  });

  test('escapes the ampersand first, so entities in input stay text', () => {
    assert.equal(escapeHtml('&lt;b&gt; & <b>'), '&amp;lt;b&amp;gt; &amp; &lt;b&gt;');
  });

  test('keeps the output of another template and trusted markup as markup', () => {
    const inner = html`<b>${'<i>'}</b>`;
    assert.equal(html`<p>${inner}${trusted('<hr>')}</p>`.value, '<p><b>&lt;i&gt;</b><hr></p>');
  });

  test('joins lists, shows numbers, and renders nothing for false, null and undefined', () => {
    assert.equal(html`${['<a>', html`<b></b>`]}|${0}|${false}|${null}|${undefined}|${true}`.value, '&lt;a&gt;<b></b>|0||||true');
  });

  test('an object that merely looks like SafeHtml is not markup', () => {
    const lookalike = { value: '<script>x</script>' } as unknown as string;
    assert.equal(html`${lookalike}`.value, '[object Object]');
  });
});
