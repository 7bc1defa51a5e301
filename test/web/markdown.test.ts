import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMarkdown } from '../../src/web/markdown';

const render = (text: string) => renderMarkdown(text).value;

describe('Markdown rendering', () => {
  test('GitHub-flavoured: tables, strikethrough, autolinks', () => {
    const out = render('| a | b |\n|--:|---|\n| 1 | ~~gone~~ |\n\nsee https://example.com/x\n');
    assert.match(out, /<table>/);
    assert.match(out, /<th style="text-align:right">a<\/th>/);
    assert.match(out, /<s>gone<\/s>/);
    assert.match(out, /<a href="https:\/\/example.com\/x" rel="nofollow noreferrer noopener">https:\/\/example.com\/x<\/a>/);
  });

  test('task lists as disabled checkboxes, checked when ticked', () => {
    const out = render('- [ ] to do\n- [x] done\n- not a task\n');
    assert.match(out, /<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" disabled \/> to do<\/li>/);
    assert.match(out, /<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" disabled checked \/> done<\/li>/);
    assert.match(out, /<li>not a task<\/li>/);
  });

  test('fenced code highlighted by language; an unknown language shown as escaped text', () => {
    assert.match(render('```js\nconst a = 1;\n```\n'), /<code class="language-js"><span class="hljs-keyword">const<\/span>/);
    const plain = render('```nosuchlang\n<b>x</b>\n```\n');
    assert.match(plain, /&lt;b&gt;x&lt;\/b&gt;/);
    assert.doesNotMatch(plain, /<b>/);
  });

  test('raw HTML that is harmless stays (GitLab allows it)', () => {
    assert.match(render('<details><summary>more</summary>\n\n*hidden*\n\n</details>\n'), /<details><summary>more<\/summary>/);
    assert.match(render('H<sub>2</sub>O <kbd>Ctrl</kbd>'), /H<sub>2<\/sub>O <kbd>Ctrl<\/kbd>/);
  });

  describe('hostile input', () => {
    const hostile = [
      '<script>window.__pwned = 1</script>',
      '<img src=x onerror="window.__pwned = 1">',
      '<img src="javascript:alert(1)">',
      '[click](javascript:window.__pwned=1)',
      '[click](JaVaScRiPt:alert(1))',
      '<a href="javascript:alert(1)">x</a>',
      '<a href="  javascript:alert(1)">x</a>',
      '<a href="data:text/html,<script>alert(1)</script>">x</a>',
      '<p onclick="alert(1)" style="background:url(javascript:alert(1))">x</p>',
      '<svg onload="alert(1)"><circle /></svg>',
      '<iframe src="https://evil.example"></iframe>',
      '<form action="/users/sign_out"><input type="submit"></form>',
      '<input type="text" onfocus="alert(1)" autofocus>',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
      '<style>body { display: none }</style>',
      '<object data="x.swf"></object><embed src="x.swf">',
      '<meta http-equiv="refresh" content="0;url=https://evil.example">',
      '<base href="https://evil.example/">',
      '- [x] <img src=x onerror=alert(1)>',
      '```js\n</code></pre><script>alert(1)</script>\n```',
      '![x](javascript:alert(1))',
    ];
    for (const input of hostile) {
      test(`nothing runs from ${JSON.stringify(input)}`, () => {
        const out = render(input);
        assert.doesNotMatch(out, /<script|<iframe|<svg|<style|<object|<embed|<meta|<base|<form|<math/i);
        assert.doesNotMatch(out, /\son\w+\s*=/i, 'no event handler attribute');
        assert.doesNotMatch(out, /(href|src|action)\s*=\s*"?\s*(javascript|data):/i, 'no script URL');
        assert.doesNotMatch(out, /<input(?![^>]*type="checkbox")/i, 'only checkboxes');
        assert.doesNotMatch(out, /style="[^"]*url\(/i);
      });
    }
  });
});
