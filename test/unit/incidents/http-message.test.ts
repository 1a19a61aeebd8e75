import {describe, expect, it} from 'vitest';
import {extractHttpMessage, statusCategory} from '../../../source/incidents/http-message.js';

describe('message extraction from HTTP error bodies (rule 4)', () => {
  const json = 'application/json; charset=utf-8';

  it('reads the JSON field message', () => {
    expect(extractHttpMessage('{"statusCode":500,"message":"Cannot read properties of undefined (reading \'id\')"}', json)).toBe(
      "Cannot read properties of undefined (reading 'id')",
    );
  });

  it('reads the JSON field error as a string', () => {
    expect(extractHttpMessage('{"error":"Unauthorized: token expired"}', json)).toBe('Unauthorized: token expired');
  });

  it('reads the message of a JSON error object', () => {
    expect(extractHttpMessage('{"error":{"code":"ER_DUP_ENTRY","message":"Duplicate entry \'a@b.c\' for key \'email\'"}}', json)).toBe("Duplicate entry 'a@b.c' for key 'email'");
  });

  it('reads the JSON field detail (problem+json)', () => {
    const body = '{"type":"about:blank","title":"Not Found","status":404,"detail":"Order 7 does not exist"}';
    expect(extractHttpMessage(body, 'application/problem+json')).toBe('Order 7 does not exist');
  });

  it('reads the first item of a FastAPI validation detail list', () => {
    const body = '{"detail":[{"loc":["body","email"],"msg":"field required","type":"value_error.missing"}]}';
    expect(extractHttpMessage(body, json)).toBe('field required');
  });

  it('reads the JSON field error_description when nothing earlier has text', () => {
    expect(extractHttpMessage('{"error":404,"error_description":"The redirect URI is not registered"}', json)).toBe('The redirect URI is not registered');
  });

  it('checks the fields in the order message, error, detail, error_description', () => {
    const body = '{"error_description":"d","detail":"c","error":"b","message":"a"}';
    expect(extractHttpMessage(body, json)).toBe('a');
    expect(extractHttpMessage('{"error_description":"d","detail":"c","error":"b"}', json)).toBe('b');
    expect(extractHttpMessage('{"error_description":"d","detail":"c"}', json)).toBe('c');
  });

  it('has nothing to say for JSON without those fields', () => {
    expect(extractHttpMessage('{"ok":false,"code":17}', json)).toBe('');
  });

  it('sniffs JSON when the content type is missing', () => {
    expect(extractHttpMessage('  {"message":"rate limited"}\n')).toBe('rate limited');
  });

  it('strips HTML tags, drops script and style, decodes entities and collapses whitespace', () => {
    const body = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Error</title><style>body { color: red }</style></head>
<body>
  <script>window.__reload = () => location.reload()</script>
  <h1>Internal Server Error</h1>
  <pre>TypeError: Cannot read properties of undefined (reading &#39;map&#39;)<br> &nbsp; &nbsp;at renderList (/app/src/views/list.js:14:22)</pre>
  <!-- request id 1234 -->
  <p>Tom &amp; Jerry &lt;admin&gt; says <b>n</b>o</p>
</body></html>`;
    expect(extractHttpMessage(body, 'text/html; charset=utf-8')).toBe(
      "Internal Server Error TypeError: Cannot read properties of undefined (reading 'map') at renderList (/app/src/views/list.js:14:22) Tom & Jerry <admin> says no",
    );
  });

  it('uses the title of an HTML page that has no body text', () => {
    expect(extractHttpMessage('<html><head><title>502 Bad Gateway</title></head><body></body></html>', 'text/html')).toBe('502 Bad Gateway');
  });

  it('sniffs HTML when the content type is missing', () => {
    expect(extractHttpMessage('<h1>Service Unavailable</h1>')).toBe('Service Unavailable');
  });

  it('uses plain text directly, cut to 200 characters', () => {
    expect(extractHttpMessage('Bad Gateway\n', 'text/plain')).toBe('Bad Gateway');
    const long = `Error: ${'connection reset by peer; '.repeat(20)}`;
    const message = extractHttpMessage(long, 'text/plain');
    expect(message).toHaveLength(200);
    expect(message.endsWith('…')).toBe(true);
    expect(message.slice(0, 199)).toBe(long.slice(0, 199));
  });

  it('cuts long JSON and HTML messages to 200 characters too', () => {
    expect(extractHttpMessage(JSON.stringify({message: 'x'.repeat(500)}), json)).toHaveLength(200);
    expect(extractHttpMessage(`<p>${'y'.repeat(500)}</p>`, 'text/html')).toHaveLength(200);
  });

  it('reads a body labelled JSON that does not parse (cut short) as plain text', () => {
    expect(extractHttpMessage('{"message":"upstream timed out', json)).toBe('{"message":"upstream timed out');
  });

  it('finds no message in an empty or binary body', () => {
    expect(extractHttpMessage(undefined)).toBe('');
    expect(extractHttpMessage('   ', 'text/plain')).toBe('');
    expect(extractHttpMessage('\u0089PNG\r\n', 'image/png')).toBe('');
  });
});

describe('statusCategory', () => {
  it('is the status code with its reason text', () => {
    expect(statusCategory(500)).toBe('500 Internal Server Error');
    expect(statusCategory(404)).toBe('404 Not Found');
    expect(statusCategory(422)).toBe('422 Unprocessable Entity');
  });

  it('names a failed request a transport error and an unknown code by its number', () => {
    expect(statusCategory(0)).toBe('transport error');
    expect(statusCategory(499)).toBe('499');
  });
});
