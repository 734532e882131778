// One LogOutputChannel for the whole extension; core and store receive it through the Logger interface.
import * as vscode from 'vscode';
import type { Logger } from '../core/types';

export function createLog(): { channel: vscode.LogOutputChannel; logger: Logger } {
  const channel = vscode.window.createOutputChannel('Engram', { log: true });
  const logger: Logger = {
    trace: (m, ...a) => channel.trace(m, ...a),
    debug: (m, ...a) => channel.debug(m, ...a),
    info: (m, ...a) => channel.info(m, ...a),
    warn: (m, ...a) => channel.warn(m, ...a),
    error: (m, ...a) => channel.error(m, ...a),
  };
  return { channel, logger };
}
