import { Injectable } from '@nestjs/common';
import { PlaceMatcherService } from '../place-matching/place-matcher.service';
import type { SearchPlan } from '../planning/search-planner';
import type { TextQuery } from '../query/text-query';
import type { StructuredQuery } from '../query/structured-address';
import { STRUCTURED_SEARCH_STEPS } from './structured-search.steps';
import { PageWindow, SearchRepository } from '../search.repository';
import { SearchSteps, TEXT_SEARCH_STEPS, TextSearchStep } from './text-search.steps';
import { initialState, StepAnswer, TextSearchState, withLearnt } from './text-search-state';

export interface TextSearchResult {
  answer: StepAnswer;
  /** The step that answered. */
  step: string;
  /** How its full-text statement read the page (planning/page-strategy.ts), when it ran one. */
  pageStrategy?: string;
  state: TextSearchState;
}

// Runs the steps of a text search in order until one answers with matches (the last always answers).
// A step that learns something returns it, and the next state is made of it: no step changes a state.
export async function runTextSearch(
  steps: readonly TextSearchStep[],
  initial: TextSearchState,
  deps: SearchSteps,
): Promise<TextSearchResult> {
  let state = initial;
  for (const step of steps) {
    if (!(await step.when(state, deps))) continue;
    state = { ...state, ran: [...state.ran, step.name] };
    const outcome = await step.run(state, deps);
    if (!outcome) continue;
    if ('learnt' in outcome) {
      state = withLearnt(state, outcome.learnt);
      continue;
    }
    if (outcome.page.total > 0 || step.final) {
      const { pageStrategy } = outcome.page;
      return { answer: outcome, step: step.name, ...(pageStrategy === undefined ? {} : { pageStrategy }), state };
    }
  }
  throw new Error('the text search steps end without a final step');
}

@Injectable()
export class TextSearchPipeline {
  private readonly deps: SearchSteps;

  constructor(repository: SearchRepository, placeMatcher: PlaceMatcherService) {
    this.deps = { repository, placeMatcher };
  }

  /** `structured`: the request's structured address, searched by the structured steps (structured-search.steps.ts). */
  async search(
    text: TextQuery,
    window: PageWindow,
    plan: SearchPlan,
    structured: StructuredQuery | null = null,
  ): Promise<TextSearchResult> {
    const vocabulary = await this.deps.repository.vocabulary();
    const steps = structured ? STRUCTURED_SEARCH_STEPS : TEXT_SEARCH_STEPS;
    return runTextSearch(steps, initialState(text, window, plan, vocabulary, structured), this.deps);
  }
}
