// A test never starts the user's editor. The TUI hands the terminal to $VISUAL or $EDITOR on `e`;
// a key that lands in the incidents pane by a test's mistake would start a real vim on the test
// runner's terminal, and spawnSync would wait for it forever (a CI run hung until it was killed).
// Tests that open an editor set their own stand-in (see incidents-pane.test.tsx).
process.env.VISUAL = '';
process.env.EDITOR = '';
process.env.GIT_EDITOR = 'false';
process.env.PAGER = 'cat';
