import { Injectable } from '@nestjs/common';
import { PlaceMatcherService } from '../place-matching/place-matcher.service';
import type { SearchPlan } from '../search-planner';
import type { TextQuery } from '../search-query';
import { PageWindow, SearchRepository } from '../search.repository';
import { SearchSteps, TEXT_SEARCH_STEPS, TextSearchStep } from './text-search.steps';
import { initialState, StepAnswer, TextSearchState } from './text-search-state';

export interface TextSearchResult {
  answer: StepAnswer;
  /** The step that answered. */
  step: string;
  state: TextSearchState;
}

// Runs the steps of a text search in order until one answers with matches (the last always answers).
export async function runTextSearch(
  steps: readonly TextSearchStep[],
  state: TextSearchState,
  deps: SearchSteps,
): Promise<TextSearchResult> {
  for (const step of steps) {
    if (!step.when(state)) continue;
    state.ran.push(step.name);
    const answer = await step.run(state, deps);
    if (answer && (answer.page.total > 0 || step.final)) return { answer, step: step.name, state };
  }
  throw new Error('the text search steps end without a final step');
}

@Injectable()
export class TextSearchPipeline {
  private readonly deps: SearchSteps;

  constructor(repository: SearchRepository, placeMatcher: PlaceMatcherService) {
    this.deps = { repository, placeMatcher };
  }

  search(text: TextQuery, window: PageWindow, plan: SearchPlan): Promise<TextSearchResult> {
    return runTextSearch(TEXT_SEARCH_STEPS, initialState(text, window, plan), this.deps);
  }
}
