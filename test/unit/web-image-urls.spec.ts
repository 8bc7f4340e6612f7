import { cardImageUrl, photoVariantUrl, viewHeading } from '../../web/src/image-urls';

// The page's image URLs of a photo record (web/src/image-urls.ts).
const id = 'd0000000-0000-4000-8000-00000000002a';
const sd = `https://img.example.com/images/${id}/sd.jpg`;
const view = `https://img.example.com/images/${id}/view.jpg?heading=120.5&fov=90`;

describe('web page: image URLs', () => {
  it("shows a flat photo's thumbnail in a result card, a 360 photo's small view, any other image as it is", () => {
    expect(cardImageUrl(sd, false)).toBe(`https://img.example.com/images/${id}/thumb.jpg`);
    expect(cardImageUrl(sd, true)).toBe(`https://img.example.com/images/${id}/view.jpg?width=320&height=200`);
    // The view of the place the search gave, only smaller.
    expect(cardImageUrl(view, true)).toBe(
      `https://img.example.com/images/${id}/view.jpg?heading=120.5&fov=90&width=320&height=200`,
    );
    expect(cardImageUrl('https://img.example.com/photos/sd.jpg', false)).toBe('https://img.example.com/photos/sd.jpg');
    expect(cardImageUrl(`http://localhost:3000/demo-images/${id}.svg`, true)).toBe(
      `http://localhost:3000/demo-images/${id}.svg`,
    );
    expect(cardImageUrl('not a url', false)).toBe('not a url');
  });

  it("keeps a signed URL's sig on every size and view of the record, and nothing else of its query", () => {
    expect(cardImageUrl(`${sd}?sig=abc`, false)).toBe(`https://img.example.com/images/${id}/thumb.jpg?sig=abc`);
    expect(cardImageUrl(`${sd}?sig=abc`, true)).toBe(
      `https://img.example.com/images/${id}/view.jpg?sig=abc&width=320&height=200`,
    );
    expect(photoVariantUrl(`${view}&sig=abc`, 'hd')).toBe(`https://img.example.com/images/${id}/hd.jpg?sig=abc`);
    expect(photoVariantUrl(view, 'original')).toBe(`https://img.example.com/images/${id}/original.jpg`);
    expect(photoVariantUrl(`http://localhost:3000/demo-images/${id}.svg`, 'hd')).toBeNull();
  });

  it('reads the heading a rendered view faces (the bearing to the place searched), null for any other image', () => {
    expect(viewHeading(view)).toBe(120.5);
    expect(viewHeading(`https://img.example.com/images/${id}/view.jpg?heading=0`)).toBe(0);
    expect(viewHeading(`https://img.example.com/images/${id}/view.jpg?fov=90`)).toBeNull();
    expect(viewHeading(`https://img.example.com/images/${id}/view.jpg?heading=`)).toBeNull();
    expect(viewHeading(`https://img.example.com/images/${id}/view.jpg?heading=east`)).toBeNull();
    expect(viewHeading(`${sd}?heading=40`)).toBeNull();
  });
});
