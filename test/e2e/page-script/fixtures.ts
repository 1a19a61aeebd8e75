/** Fixture pages with a known layout: the values the primitives must find are written next to the markup that makes them. */

export const channelPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Channel fixture</title></head>
<body><h1>Channel</h1><button id="go">Go</button><p id="out"></p></body></html>`;

/** Counts WebSocket constructions before the page script runs, to see that a second copy stays idle. */
export const twicePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Twice</title></head>
<body><p>twice</p></body></html>`;

export const countSocketsScript = `<script>window.__sockets = 0; (function () { var Native = window.WebSocket; window.WebSocket = function (url) { window.__sockets++; return new Native(url); }; window.WebSocket.OPEN = Native.OPEN; window.WebSocket.prototype = Native.prototype; })();</script>`;

export const layoutPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Layout fixture</title>
<style>
  body { margin: 0; font: 16px/20px sans-serif; color: #000; background: #fff; }
  /* #a (10,10)–(110,110) and #b (60,60)–(160,160) share a 50×50 square: a quarter of each. */
  #a { position: absolute; left: 10px; top: 10px; width: 100px; height: 100px; background: #eee; }
  #b { position: absolute; left: 60px; top: 60px; width: 100px; height: 100px; background: #ddd; z-index: 3; }
  /* Wholly left of the page. */
  #offscreen { position: absolute; left: -500px; top: 300px; width: 100px; height: 20px; }
  /* #777 on white: 4.48:1, under AA's 4.5 for 16px text. */
  #grey { color: #777; background: #fff; }
  #box { position: absolute; left: 200px; top: 10px; width: 100px; height: 40px; padding: 5px 10px; border: 2px solid #000; margin: 3px; box-sizing: content-box; }
  #scroller { position: absolute; left: 400px; top: 10px; width: 100px; height: 50px; overflow: auto; }
  #scroller > div { height: 200px; }
  #clipped { position: absolute; left: 520px; top: 10px; width: 60px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
  #hidden { display: none; }
  #content { position: absolute; top: 400px; left: 10px; width: 600px; }
  #fixedbar { position: fixed; bottom: 0; left: 0; width: 100%; height: 30px; background: #333; color: #fff; }
  #tiny { display: inline-block; width: 10px; height: 10px; }
</style></head>
<body>
  <div id="a">A</div>
  <div id="b">B</div>
  <div id="offscreen">Skip to content</div>
  <div id="box">Box</div>
  <div id="scroller"><div>tall</div></div>
  <div id="clipped">A long label that does not fit</div>
  <div id="fixedbar">Cookie banner</div>
  <main id="content">
    <h1>Fixture</h1>
    <h3>Skipped a level</h3>
    <p id="grey">Grey text</p>
    <p id="hidden">Not shown</p>
    <img id="noalt" src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==" width="20" height="20">
    <img id="withalt" alt="Company logo" src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==" width="20" height="20">
    <form id="signup" action="/signup" method="post">
      <label for="email">Email</label> <input id="email" name="email" type="email" required>
      <input id="unlabelled" name="nick" type="text">
      <select id="plan" name="plan"><option value="free">Free</option><option value="pro">Pro</option></select>
      <button id="iconbutton" type="button"><span class="icon"></span></button>
      <button id="save" type="submit" aria-label="Save draft">💾</button>
    </form>
    <nav aria-label="Primary"><a id="home" href="/">Home</a> <a id="first" href="/first" tabindex="1">First by tabindex</a> <a id="tiny" href="/t"></a></nav>
    <div id="dup">one</div><div id="dup">two</div>
  </main>
</body></html>`;
