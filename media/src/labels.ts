// Words for the memory model's enums (kind, outcome) in the UI language; maturity is core's maturityText.
import type { MemoryView } from '../../src/views/memoriesProtocol';
import { t } from './l10n';

export const KIND_LABEL: Record<MemoryView['kind'], string> = { lesson: t('lesson'), episode: t('episode'), fact: t('fact'), rule: t('rule') };

export const OUTCOME_LABEL: Record<NonNullable<MemoryView['outcome']>, string> = {
  success: t('success'), partial: t('partial'), failure: t('failure'), abandoned: t('abandoned'),
};

/** An outcome in words; one the view does not know shows as sent. */
export function outcomeLabel(o: string): string {
  return Object.prototype.hasOwnProperty.call(OUTCOME_LABEL, o) ? OUTCOME_LABEL[o as keyof typeof OUTCOME_LABEL] : o;
}
