// Webview entry for both Engram views. Host messages are validated with the shared protocol before
// anything is rendered; malformed ones are dropped and reported to the console.
import type { ViewKind } from '../../src/views/common';
import { parseHostMessage, type HostMessage } from '../../src/views/protocol';
import { InsightsApp } from './insights';
import { MemoriesApp } from './memories';
import { send } from './vscodeApi';

const view: ViewKind = document.body.dataset.view === 'insights' ? 'insights' : 'memories';
const root = document.getElementById('app')!;
const app: { handle(msg: HostMessage): void } = view === 'insights' ? new InsightsApp(root) : new MemoriesApp(root);

window.addEventListener('message', ev => {
  const msg = parseHostMessage(ev.data);
  if (!msg) {
    console.warn('Engram: ignored a malformed message from the host');
    return;
  }
  app.handle(msg);
});

send({ type: 'ready', view });
