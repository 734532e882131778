// Keyboard navigation over every row in the view: one tab stop (the active row), arrow keys move
// between rows across sections, Enter/Space expand, Escape goes back from a row's buttons to the row.
export interface RovingOptions {
  toggle(row: HTMLElement): void;
  expand(row: HTMLElement, open: boolean): void;
}

const ROW = '[data-row]';
const INNER = 'button, input, a, [data-inner]';

export class RovingList {
  private active?: HTMLElement;

  constructor(private readonly root: HTMLElement, private readonly opts: RovingOptions) {
    root.addEventListener('keydown', ev => this.onKey(ev));
    root.addEventListener('focusin', ev => {
      const row = (ev.target as HTMLElement).closest<HTMLElement>(ROW);
      if (row && row !== this.active) { this.active = row; this.update(); }
    });
  }

  rows(): HTMLElement[] {
    return [...this.root.querySelectorAll<HTMLElement>(ROW)].filter(r => !r.closest('[hidden]'));
  }

  /** Recomputes tab stops after a render, keeping the active row when it still exists. */
  update(): void {
    const rows = this.rows();
    if (!this.active || !this.active.isConnected || !rows.includes(this.active)) {
      const key = this.active?.dataset.key;
      this.active = (key && rows.find(r => r.dataset.key === key)) || rows[0];
    }
    for (const r of rows) {
      const on = r === this.active;
      r.tabIndex = on ? 0 : -1;
      // Buttons of inactive rows leave the tab order, so Tab moves between sections, not 200 buttons.
      for (const b of r.querySelectorAll<HTMLElement>(INNER)) b.tabIndex = on ? 0 : -1;
    }
  }

  focus(row: HTMLElement): void {
    this.active = row;
    this.update();
    row.focus();
    row.scrollIntoView({ block: 'nearest' });
  }

  private onKey(ev: KeyboardEvent): void {
    const target = ev.target as HTMLElement;
    const row = target.closest<HTMLElement>(ROW);
    if (!row) return;
    const onRow = target === row;
    if (!onRow) {
      if (ev.key === 'Escape') { ev.preventDefault(); this.focus(row); }
      return;
    }
    const rows = this.rows();
    const i = rows.indexOf(row);
    let next: HTMLElement | undefined;
    switch (ev.key) {
      case 'ArrowDown': next = rows[Math.min(rows.length - 1, i + 1)]; break;
      case 'ArrowUp': next = rows[Math.max(0, i - 1)]; break;
      case 'Home': next = rows[0]; break;
      case 'End': next = rows[rows.length - 1]; break;
      case 'Enter':
      case ' ':
        ev.preventDefault();
        this.opts.toggle(row);
        return;
      case 'ArrowRight': ev.preventDefault(); this.opts.expand(row, true); return;
      case 'ArrowLeft': ev.preventDefault(); this.opts.expand(row, false); return;
      default: return;
    }
    ev.preventDefault();
    if (next) this.focus(next);
  }
}
