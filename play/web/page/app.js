// app.js — the page's entry: the three tabs (move generation, table explorer,
// replay), the view named in the address's #fragment (else the explorer when
// the server has a table, move generation when not), and a last-resort
// catch that shows an unexpected error on the page instead of throwing.
import { tableInfo } from './api.js';
import * as moves from './moves.js';
import * as explorer from './explorer.js';
import * as replay from './replay.js';

const VIEWS = ['moves', 'explorer', 'replay'];
let defaultView = 'moves';

// The browser's notice that a ResizeObserver's callback changed a size it
// watches (drawn again in the next frame): no error of the page's.
function benign(message) {
  return /^ResizeObserver loop/.test(String(message));
}

function showPageError(message) {
  const box = document.getElementById('page-error');
  box.textContent = `unexpected error: ${message}`;
  box.hidden = false;
}

// (Still logged to the console: these are bugs, not the server's errors.)
window.addEventListener('unhandledrejection', (e) => {
  showPageError(e.reason && e.reason.message ? e.reason.message : String(e.reason));
});
window.addEventListener('error', (e) => {
  if (benign(e.message)) return;
  showPageError(e.message || 'script error');
});

function select(view) {
  if (!VIEWS.includes(view)) view = defaultView;
  for (const name of VIEWS) {
    const active = name === view;
    document.getElementById(`view-${name}`).hidden = !active;
    const tab = document.getElementById(`tab-${name}`);
    tab.classList.toggle('active', active);
    tab.setAttribute('aria-selected', String(active));
  }
  if (location.hash !== `#${view}`) history.replaceState(null, '', `#${view}`);
  if (view === 'explorer') explorer.show();
  if (view === 'replay') replay.showView();
}

function start() {
  moves.init();
  explorer.init();
  replay.init();
  for (const name of VIEWS) {
    document.getElementById(`tab-${name}`).addEventListener('click', () => select(name));
  }
  window.addEventListener('hashchange', () => select(location.hash.slice(1)));
  const asked = location.hash.slice(1);
  if (VIEWS.includes(asked)) {
    select(asked);
    return;
  }
  // No view asked: the explorer if there is a table to explore (unless a tab
  // was clicked while the server answered).
  tableInfo().then(({ data }) => {
    if (data && data.loaded) defaultView = 'explorer';
    if (!VIEWS.includes(location.hash.slice(1))) select(defaultView);
  });
}

try {
  start();
} catch (e) {
  showPageError(e && e.message ? e.message : String(e));
}
