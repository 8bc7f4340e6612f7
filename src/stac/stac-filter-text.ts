import { COMPARISONS, Comparison, comparison, Filter, instant, queryable } from './stac-filter';
import { invalidParameter } from './stac.exception';

// CQL2 text, the Basic CQL2 subset (stac-filter.ts), read into the same tree as CQL2 JSON:
//   interactive = true AND "view:azimuth" >= 90 AND datetime >= TIMESTAMP('2019-01-01T00:00:00Z')
//   collection = 'survey-a' OR NOT (datetime < DATE('2020-01-01')) OR source IS NULL
export const MAX_FILTER_TEXT = 2000;
const MAX_DEPTH = 16;

interface Token {
  kind: 'word' | 'name' | 'string' | 'number' | 'symbol';
  text: string;
}

const TOKEN =
  /\s*(?:([A-Za-z_][A-Za-z0-9_:.]*)|"((?:[^"]|"")*)"|'((?:[^']|'')*)'|(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|(<>|<=|>=|[=<>(),]))/y;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) throw invalidParameter('filter', `cannot be read as CQL2 text at character ${at + 1}`);
    if (m[1] !== undefined) tokens.push({ kind: 'word', text: m[1] });
    else if (m[2] !== undefined) tokens.push({ kind: 'name', text: m[2].replace(/""/g, '"') });
    else if (m[3] !== undefined) tokens.push({ kind: 'string', text: m[3].replace(/''/g, "'") });
    else if (m[4] !== undefined) tokens.push({ kind: 'number', text: m[4] });
    else tokens.push({ kind: 'symbol', text: m[5] });
  }
  return tokens;
}

export function filterFromText(text: string): Filter {
  if (text.length > MAX_FILTER_TEXT) throw invalidParameter('filter', `must be at most ${MAX_FILTER_TEXT} characters`);
  const parser = new TextParser(tokenize(text));
  const filter = parser.or(0);
  parser.end();
  return filter;
}

// Recursive descent, lowest precedence first: OR, AND, NOT and parentheses, a predicate, a literal.
class TextParser {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}

  or(depth: number): Filter {
    if (depth > MAX_DEPTH) throw invalidParameter('filter', `must nest at most ${MAX_DEPTH} levels`);
    const args = [this.and(depth)];
    while (this.takeWord('OR')) args.push(this.and(depth));
    return args.length === 1 ? args[0] : { op: 'or', args };
  }

  end(): void {
    if (this.at < this.tokens.length) throw this.unexpected();
  }

  private and(depth: number): Filter {
    const args = [this.not(depth)];
    while (this.takeWord('AND')) args.push(this.not(depth));
    return args.length === 1 ? args[0] : { op: 'and', args };
  }

  private not(depth: number): Filter {
    if (this.takeWord('NOT')) return { op: 'not', arg: this.not(depth + 1) };
    if (this.takeSymbol('(')) {
      const inner = this.or(depth + 1);
      this.expect(')');
      return inner;
    }
    return this.predicate();
  }

  private predicate(): Filter {
    const token = this.next();
    if (token.kind !== 'word' && token.kind !== 'name') throw this.unexpected(-1);
    if (this.takeWord('IS')) {
      const negated = this.takeWord('NOT');
      if (!this.takeWord('NULL')) throw this.unexpected();
      const isNull: Filter = { op: 'isNull', property: queryable(token.text) };
      return negated ? { op: 'not', arg: isNull } : isNull;
    }
    const op = this.next();
    if (op.kind !== 'symbol' || !(COMPARISONS as string[]).includes(op.text)) throw this.unexpected(-1);
    return comparison(op.text as Comparison, token.text, this.literal());
  }

  private literal(): unknown {
    const token = this.next();
    if (token.kind === 'string') return token.text;
    if (token.kind === 'number') return Number(token.text);
    const word = token.kind === 'word' ? token.text.toUpperCase() : '';
    if (word === 'TRUE' || word === 'FALSE') return word === 'TRUE';
    if (word !== 'TIMESTAMP' && word !== 'DATE') throw this.unexpected(-1);
    this.expect('(');
    const value = this.next();
    if (value.kind !== 'string') throw this.unexpected(-1);
    this.expect(')');
    return instant(word === 'DATE' ? 'date' : 'timestamp', value.text);
  }

  private next(): Token {
    const token = this.tokens[this.at];
    if (!token) throw this.unexpected();
    this.at++;
    return token;
  }

  private takeWord(word: string): boolean {
    const token = this.tokens[this.at];
    if (token?.kind !== 'word' || token.text.toUpperCase() !== word) return false;
    this.at++;
    return true;
  }

  private takeSymbol(symbol: string): boolean {
    const token = this.tokens[this.at];
    if (token?.kind !== 'symbol' || token.text !== symbol) return false;
    this.at++;
    return true;
  }

  private expect(symbol: string): void {
    if (!this.takeSymbol(symbol)) throw this.unexpected();
  }

  private unexpected(offset = 0) {
    const token = this.tokens[this.at + offset];
    return invalidParameter(
      'filter',
      token ? `cannot be read as CQL2 text at "${token.text.slice(0, 40)}"` : 'ends too soon',
    );
  }
}
