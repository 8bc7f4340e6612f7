import { ValidationArguments, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { languageTagOf } from '../../places/place-names';

/** The longest `lang` taken (a language with script, region and a variant fits). */
export const LANG_MAX_LENGTH = 35;
/** Its shape, as OpenAPI states it (the check is place-names.ts's languageTagOf). */
export const LANG_PATTERN = '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$';

// `lang`: one BCP 47 language tag whose language has two or three letters.
@ValidatorConstraint({ name: 'lang' })
export class LanguageTagConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && value.length <= LANG_MAX_LENGTH && languageTagOf(value) !== null;
  }
  defaultMessage(args: ValidationArguments): string {
    const shape = `a BCP 47 language tag of at most ${LANG_MAX_LENGTH} characters ("de", "pt-BR", "zh-Hant")`;
    if (typeof args.value !== 'string') return `lang must be ${shape}`;
    return `lang ${JSON.stringify(args.value.slice(0, 40))} is not a language tag; lang must be ${shape}`;
  }
}
