import { ApiError, SearchResponse } from './api';
import { showNearestOffer } from './nearest-offer';
import { lastReachablePage, PAGE_SIZE } from './search-state';

// What the page says about a search's outcome: the status line (announced to screen readers), the
// empty-state box (with its clear-filters and widen-radius buttons) and the pager.

export interface OutcomeElements {
  status: HTMLParagraphElement;
  empty: HTMLDivElement;
  emptyTitle: HTMLParagraphElement;
  emptyHint: HTMLParagraphElement;
  emptyClear: HTMLButtonElement;
  emptyWiden: HTMLButtonElement;
  pager: HTMLElement;
  prev: HTMLButtonElement;
  next: HTMLButtonElement;
  pageInfo: HTMLSpanElement;
}

export interface SearchOutcome {
  /** What was searched, as the status says it: "“Vaduz” in Liechtenstein", "this area". */
  what: string;
  /** Some filter is on (the empty state then offers to clear them). */
  filtered: boolean;
  /** Nothing within the radius around coordinates: search again within this radius (metres). */
  onWiden: (radiusM: number) => void;
}

export interface OutcomeView {
  setStatus(text: string, kind?: 'info' | 'error'): void;
  showResponse(response: SearchResponse, outcome: SearchOutcome): void;
  /** The API refused the search; true when the key was the problem. */
  showError(error: Error): boolean;
  /** No search: no status, no empty state, no pager. */
  clear(): void;
}

// What the search was read as when it was not the words as typed: "Showing results for “new york”."
export function readAs(interpretation: SearchResponse['interpretation']): string {
  if (interpretation?.kind !== 'text' || !interpretation.approximate) return '';
  return interpretation.corrections?.length
    ? ` Showing results for “${interpretation.normalized}”.`
    : ' No exact match: showing the closest results.';
}

export function createOutcomeView(ui: OutcomeElements): OutcomeView {
  function setStatus(text: string, kind: 'info' | 'error' = 'info'): void {
    ui.status.textContent = text;
    ui.status.dataset.kind = kind;
    // The empty-state box says it visibly; the status still announces it to screen readers.
    ui.status.classList.toggle('visually-hidden', !ui.empty.hidden && kind === 'info');
  }

  function showPager(page: number, total: number): void {
    ui.pager.hidden = total <= 1;
    const last = lastReachablePage(total);
    ui.pageInfo.textContent = `Page ${page.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
    ui.prev.disabled = page <= 1;
    ui.next.disabled = page >= last;
    ui.next.title =
      page >= last && last < total ? 'The API serves the first 10,000 results; narrow the search to see more.' : '';
  }

  return {
    setStatus,
    showResponse({ data: records, page, pageTotal: total, interpretation }, outcome) {
      const { what, filtered } = outcome;
      const first = (page - 1) * PAGE_SIZE + 1;
      ui.empty.hidden = total !== 0;
      ui.emptyWiden.hidden = true;
      if (total === 0 && interpretation?.radius_m !== undefined) {
        const nothingWithin = {
          radiusM: interpretation.radius_m,
          nearest: interpretation.nearest ?? null,
          what,
          filtered,
        };
        setStatus(showNearestOffer(ui, nothingWithin, outcome.onWiden));
      } else if (total === 0) {
        ui.emptyTitle.textContent = `No imagery found for ${what}`;
        ui.emptyHint.textContent = filtered
          ? 'Try fewer filters, or another spelling.'
          : 'Try another spelling, or a nearby place.';
        ui.emptyClear.hidden = !filtered;
        setStatus(`No imagery found for ${what}.`);
      } else if (records.length === 0) {
        setStatus(`Page ${page} is past the last page (${total}).`);
      } else {
        const range = records.length === 1 ? `Result ${first}` : `Results ${first}–${first + records.length - 1}`;
        setStatus(`${range} for ${what}, page ${page} of ${total.toLocaleString('en-US')}.${readAs(interpretation)}`);
      }
      showPager(page, total);
    },
    showError(error) {
      ui.empty.hidden = true;
      ui.pager.hidden = true;
      if (error instanceof ApiError && error.isKeyProblem) {
        setStatus(`${error.message}. Check the API key.`, 'error');
        return true;
      }
      if (error instanceof ApiError)
        setStatus(error.details.map((d) => d.message).join('; ') || error.message, 'error');
      else setStatus('Something went wrong. Please try again.', 'error');
      return false;
    },
    clear() {
      ui.empty.hidden = true;
      ui.pager.hidden = true;
      setStatus('');
    },
  };
}
