// The toolplane console: signs in with an API key (kept in this tab's sessionStorage, sent only
// as the Authorization header) and shows the caller's tools, account links and, for admins,
// the approvals inbox (kept current by its event stream), all through the server's /v1 API.
// Every value from the API is written with textContent, never as HTML.

const KEY_ITEM = 'toolplane.console.key';
const $ = (selector) => document.querySelector(selector);

/** A failed API answer, with the API's own message. */
class ApiFailure extends Error {
  constructor(status, body) {
    const error = body && typeof body === 'object' ? body.error : undefined;
    super(error?.message ?? `the server answered ${status}`);
    this.status = status;
    this.code = error?.code;
    this.reason = error?.reason;
  }
}

async function api(method, path, body) {
  const key = sessionStorage.getItem(KEY_ITEM);
  const headers = { accept: 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    credentials: 'omit',
    cache: 'no-store',
  });
  const text = await response.text();
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) throw new ApiFailure(response.status, parsed);
  return parsed;
}

function element(tag, properties = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(properties)) {
    if (name === 'text') node.textContent = value;
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

function show(selector, message) {
  const node = $(selector);
  node.textContent = message ?? '';
  node.hidden = !message;
}

function button(label, onClick) {
  const node = element('button', { type: 'button', text: label });
  node.addEventListener('click', () => {
    node.disabled = true;
    show('#problem');
    onClick().catch((error) => {
      show('#problem', error.message);
      node.disabled = false;
    });
  });
  return node;
}

async function renderTools() {
  const { tools } = await api('GET', '/v1/tools');
  const section = $('#tools');
  const list = section.querySelector('ul');
  list.replaceChildren(
    ...tools.map((tool) =>
      element(
        'li',
        { dataset: { tool: tool.name } },
        element('span', { class: 'tool-name', text: tool.name }),
        ' ',
        element('span', { class: 'tool-description', text: tool.description }),
      ),
    ),
  );
  section.querySelector('.empty').hidden = tools.length > 0;
  section.hidden = false;
}

async function renderLinks(me) {
  const section = $('#links');
  const explain = section.querySelector('.explain');
  const table = section.querySelector('table');
  section.hidden = false;
  if (me.kind !== 'user') {
    explain.textContent = `Accounts are linked by users; this is a${me.kind === 'admin' ? 'n' : ''} ${me.kind} key. Sign in with a user key to link yours.`;
    table.hidden = true;
    return;
  }
  const { links } = await api('GET', '/v1/oauth/links');
  const rows = links.map((link) => {
    const name = encodeURIComponent(link.server);
    const action = link.linked
      ? button('Unlink', async () => {
          await api('DELETE', `/v1/mcp-servers/${name}/oauth`);
          show('#notice', `Unlinked ${link.server}.`);
          await Promise.all([renderLinks(me), renderTools()]);
        })
      : button('Link', async () => {
          const started = await api('POST', `/v1/mcp-servers/${name}/oauth/start?return=console`);
          window.location.assign(started.authorizationUrl);
        });
    return element(
      'tr',
      { dataset: { server: link.server } },
      element('td', { class: 'server-name', text: link.server }),
      element('td', { class: 'link-status', text: link.linked ? 'linked' : 'not linked' }),
      element('td', {}, action),
    );
  });
  table.querySelector('tbody').replaceChildren(...rows);
  table.hidden = links.length === 0;
  section.querySelector('.empty').hidden = links.length > 0;
}

async function answerApproval(approval, decision) {
  await api('POST', `/v1/approvals/${encodeURIComponent(approval.id)}`, {
    decision,
    callId: approval.callId,
    tool: approval.tool,
    argumentsHash: approval.argumentsHash,
  });
  show('#notice', `${decision} for ${approval.tool}.`);
  await renderApprovals();
}

async function renderApprovals() {
  const { approvals } = await api('GET', '/v1/approvals');
  const section = $('#approvals');
  section.querySelector('ul').replaceChildren(
    ...approvals.map((approval) =>
      element(
        'li',
        { dataset: { approval: approval.id } },
        element('span', { class: 'approval-tool', text: approval.tool }),
        ` asked by ${approval.principal.kind} ${approval.principal.id}: ${approval.reason}`,
        element('pre', { text: approval.command ?? JSON.stringify(approval.arguments, null, 2) }),
        button('Allow once', () => answerApproval(approval, 'allow-once')),
        button('Allow always', () => answerApproval(approval, 'allow-always')),
        button('Deny', () => answerApproval(approval, 'deny')),
      ),
    ),
  );
  section.querySelector('.empty').hidden = approvals.length > 0;
  section.hidden = false;
}

/** The open approvals stream of the signed-in admin; aborted on sign-out. */
let following;

/**
 * Follows `/v1/approvals/stream` (read with fetch, since EventSource cannot send the key as a
 * header): every `approval-requested` or `approval-settled` event redraws the inbox, so a new
 * call asking for approval shows up and one answered elsewhere goes away. A dropped stream is
 * opened again after 2 s, then 4, 8, at most 30, while the admin stays signed in.
 */
function followApprovals() {
  following?.abort();
  const controller = new AbortController();
  following = controller;
  let delay = 2000;
  let redraw;
  const changed = () => {
    // a burst of events redraws once
    clearTimeout(redraw);
    redraw = setTimeout(() => {
      renderApprovals().catch((error) => show('#problem', error.message));
    }, 50);
  };
  const open = async () => {
    const response = await fetch('/v1/approvals/stream', {
      headers: {
        accept: 'text/event-stream',
        authorization: `Bearer ${sessionStorage.getItem(KEY_ITEM)}`,
      },
      credentials: 'omit',
      cache: 'no-store',
      signal: controller.signal,
    });
    if (!response.ok || !response.body) throw new ApiFailure(response.status);
    delay = 2000;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += value;
      const events = buffered.split('\n\n');
      buffered = events.pop() ?? '';
      if (events.some((event) => /^event: approval-/m.test(event))) changed();
    }
  };
  const loop = async () => {
    while (!controller.signal.aborted) {
      try {
        await open();
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof ApiFailure && error.status === 401) return signedOut(error.message);
      }
      if (controller.signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 30_000);
    }
  };
  loop();
}

function signedOut(message) {
  following?.abort();
  following = undefined;
  sessionStorage.removeItem(KEY_ITEM);
  for (const id of ['#tools', '#links', '#approvals', '#who', '#sign-out']) $(id).hidden = true;
  $('#sign-in').hidden = false;
  show('#problem', message);
}

async function signedIn() {
  const me = await api('GET', '/v1/me');
  $('#sign-in').hidden = true;
  show('#who', `${me.kind} ${me.id} (tenant ${me.tenantId})`);
  $('#sign-out').hidden = false;
  const parts = [renderTools(), renderLinks(me)];
  if (me.kind === 'admin') {
    parts.push(renderApprovals());
    followApprovals();
  }
  const failed = (await Promise.allSettled(parts)).find((part) => part.status === 'rejected');
  if (failed) show('#problem', failed.reason.message);
}

/** The result of an OAuth login begun here: the callback sent the browser back with it. */
function showReturn() {
  const params = new URLSearchParams(window.location.search);
  const linked = params.get('linked');
  const failed = params.get('link_failed');
  if (linked) show('#notice', `Linked ${linked}: its tools now run with your account.`);
  if (failed) show('#problem', `The link failed: ${failed}`);
  if (linked || failed) window.history.replaceState(null, '', '/console');
}

async function start() {
  $('#sign-in').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = $('#key');
    sessionStorage.setItem(KEY_ITEM, input.value.trim());
    input.value = '';
    show('#problem');
    signedIn().catch((error) => signedOut(error.message));
  });
  $('#sign-out').addEventListener('click', () => {
    show('#notice');
    signedOut();
  });
  $('#approvals .refresh').addEventListener('click', () => {
    renderApprovals().catch((error) => show('#problem', error.message));
  });
  showReturn();
  if (!sessionStorage.getItem(KEY_ITEM)) return signedOut();
  await signedIn().catch((error) =>
    error instanceof ApiFailure && error.status === 401
      ? signedOut(error.message)
      : show('#problem', error.message),
  );
}

start();
