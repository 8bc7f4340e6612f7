import { feature } from './test-app';

// A small catalogue at real Liechtenstein and Stuttgart streets for relevance tests.
export function relevanceFixture() {
  return [
    feature('Herrengasse 35, 9490 Vaduz', {
      id: 'a0000000-0000-4000-8000-000000000035',
      heading: 273.1,
      captured_at: '2015-09-10',
    }),
    feature('Herrengasse 9, 9490 Vaduz', { id: 'a0000000-0000-4000-8000-000000000009' }),
    feature('Herrengasse 350, 9490 Vaduz', { id: 'a0000000-0000-4000-8000-000000000350' }),
    feature('Herrengasse 3, 9490 Vaduz', { id: 'a0000000-0000-4000-8000-000000000003' }),
    feature('Städtle 1, 9490 Vaduz', { id: 'a0000000-0000-4000-8000-000000001001' }),
    feature('Äulestrasse 20, 9490 Vaduz', { id: 'a0000000-0000-4000-8000-000000001002' }),
    feature('Landstrasse 100, 9494 Schaan', { id: 'a0000000-0000-4000-8000-000000001003' }),
    feature('Tübinger Straße 12, 70178 Stuttgart', { id: 'a0000000-0000-4000-8000-000000001004' }),
    feature('Rotebühlplatz 1, 70173 Stuttgart', { id: 'a0000000-0000-4000-8000-000000001005' }),
    feature('LI-9490-35', { id: 'a0000000-0000-4000-8000-000000001006' }),
  ];
}

export const ids = {
  herrengasse35: 'a0000000-0000-4000-8000-000000000035',
  herrengasse9: 'a0000000-0000-4000-8000-000000000009',
  herrengasse350: 'a0000000-0000-4000-8000-000000000350',
  staedtle: 'a0000000-0000-4000-8000-000000001001',
  aeulestrasse: 'a0000000-0000-4000-8000-000000001002',
  tuebinger: 'a0000000-0000-4000-8000-000000001004',
  rotebuehl: 'a0000000-0000-4000-8000-000000001005',
  code: 'a0000000-0000-4000-8000-000000001006',
};
