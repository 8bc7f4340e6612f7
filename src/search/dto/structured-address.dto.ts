import 'reflect-metadata';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsString,
  Length,
  Validate,
  ValidateIf,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { AddressPart, ADDRESS_PARTS, countryOfAddress, regionOfAddress } from '../query/structured-address';

export const ADDRESS_PART_MAX_LENGTH = 128;

// Every kind of white space a pasted part holds becomes one space, as in `query`.
const SPACE_LIKE = /[\p{Cc}\p{Z}\u180E\u200B\u2060\uFEFF]+/gu;
const cleanPart = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.replace(SPACE_LIKE, ' ').trim() : value;
const partMessage = (part: AddressPart) =>
  `address.${part} must be a string of 1 to ${ADDRESS_PART_MAX_LENGTH} characters after trimming`;
const given = (part: AddressPart) => (o: StructuredAddressDto) => o[part] !== undefined;

@ValidatorConstraint({ name: 'addressCountry' })
class AddressCountryConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && countryOfAddress(value) !== undefined;
  }
  defaultMessage(args: ValidationArguments): string {
    return `address.country ${JSON.stringify(String(args.value).slice(0, 40))} is no country: give its ISO 3166-1 alpha-2 or alpha-3 code ("LI", "LIE") or its name`;
  }
}

@ValidatorConstraint({ name: 'addressRegion' })
class AddressRegionConstraint implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    const { country } = args.object as StructuredAddressDto;
    const countryCode = country === undefined ? undefined : countryOfAddress(country)?.code;
    if (country !== undefined && countryCode === undefined) return true; // address.country reports it
    return typeof value === 'string' && regionOfAddress(value, countryCode) !== undefined;
  }
  defaultMessage(args: ValidationArguments): string {
    const { country } = args.object as StructuredAddressDto;
    const within = country === undefined ? '' : ` of ${JSON.stringify(country)}`;
    return `address.region ${JSON.stringify(String(args.value).slice(0, 40))} is no region${within}: give its ISO 3166-2 code ("US-TX", or "TX" with a country) or its name`;
  }
}

function part(name: AddressPart, description: string, example: string): PropertyDecorator {
  const decorators = [
    ApiPropertyOptional({ description, minLength: 1, maxLength: ADDRESS_PART_MAX_LENGTH, example }),
    ValidateIf(given(name)),
    Transform(cleanPart),
    IsString({ message: partMessage(name) }),
    Length(1, ADDRESS_PART_MAX_LENGTH, { message: partMessage(name) }),
  ];
  return (target, key) => decorators.forEach((d) => d(target, key));
}

// `address`: a structured query, as Nominatim's and Pelias's structured endpoints take one; each part
// is read at its own level only (query/structured-address.ts), any subset of them, at least one.
export class StructuredAddressDto {
  @part('housenumber', 'The house number, searched on the street given.', '35')
  housenumber?: string;

  @part('street', 'The street (or a named square, an addr:place), without its house number.', 'Herrengasse')
  street?: string;

  @part('city', 'The town, village or hamlet: matched only as a locality.', 'Vaduz')
  city?: string;

  @part('postcode', 'The postcode: matched only as a postcode.', '9490')
  postcode?: string;

  @Validate(AddressRegionConstraint)
  @part(
    'region',
    'The first-level region: its ISO 3166-2 code ("US-TX"; "TX" with a country) or its name. The search keeps to it.',
    'US-TX',
  )
  region?: string;

  @Validate(AddressCountryConstraint)
  @part('country', 'The country: its ISO 3166-1 alpha-2 or alpha-3 code or its name. The search keeps to it.', 'LI')
  country?: string;
}

// At least one part: an empty address asks for nothing.
@ValidatorConstraint({ name: 'addressParts' })
export class AddressPartsConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return true; // the object rule reports it
    const parts = value as Record<string, unknown>;
    return ADDRESS_PARTS.some((k) => parts[k] !== undefined) || Object.keys(parts).some((k) => parts[k] !== undefined);
  }
  defaultMessage(): string {
    return `address must give at least one of ${ADDRESS_PARTS.join(', ')}`;
  }
}
