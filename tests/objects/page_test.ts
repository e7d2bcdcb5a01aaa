import assert from "node:assert/strict";
import {
  SitemapAlternate,
  SitemapImage,
  SitemapNewsStory,
  SitemapPage,
  SitemapVideo,
} from "../../src/objects/page.ts";

Deno.test("SitemapPage fills absent fields with defaults and frozen empty lists", () => {
  const page = new SitemapPage({ url: "https://example.com/" });
  assert.equal(page.url, "https://example.com/");
  assert.equal(page.priority, 0.5);
  assert.equal(page.lastModified, null);
  assert.equal(page.changeFrequency, null);
  assert.equal(page.newsStory, null);
  assert.deepEqual([page.images, page.videos, page.alternates], [[], [], []]);
  assert.ok(Object.isFrozen(page.images));
  assert.throws(() => (page.images as SitemapImage[]).push(new SitemapImage({ loc: "x" })));
});

Deno.test("SitemapPage turns priorities outside [0, 1] into 0.5", () => {
  const priorities = [0, 1, 0.8, -0.1, 1.5, NaN, Infinity].map((priority) =>
    new SitemapPage({ url: "https://example.com/", priority }).priority
  );
  assert.deepEqual(priorities, [0, 1, 0.8, 0.5, 0.5, 0.5, 0.5]);
});

Deno.test("SitemapPage turns an invalid Date into null", () => {
  const page = new SitemapPage({ url: "https://example.com/", lastModified: new Date("nope") });
  assert.equal(page.lastModified, null);
  assert.equal(page.toJSON().lastModified, null);
});

Deno.test("SitemapPage keeps a frozen copy of the lists it was given", () => {
  const alternates = [new SitemapAlternate({ hreflang: "de", href: "https://example.com/de" })];
  const page = new SitemapPage({ url: "https://example.com/", alternates });
  alternates.push(new SitemapAlternate({ hreflang: "fr", href: "https://example.com/fr" }));
  assert.deepEqual(page.alternates.map((a) => a.hreflang), ["de"]);
  assert.ok(Object.isFrozen(page.alternates));
});

Deno.test("SitemapNewsStory, SitemapImage and SitemapVideo default to null and empty lists", () => {
  assert.deepEqual(new SitemapNewsStory({ title: "T" }).toJSON(), {
    title: "T",
    publishDate: null,
    publicationName: null,
    publicationLanguage: null,
    access: null,
    genres: [],
    keywords: [],
    stockTickers: [],
  });
  assert.deepEqual(new SitemapImage({ loc: "https://example.com/a.png" }).toJSON(), {
    loc: "https://example.com/a.png",
    caption: null,
    geoLocation: null,
    title: null,
    license: null,
  });
  assert.deepEqual(new SitemapVideo({}).toJSON(), {
    thumbnailLoc: null,
    title: null,
    description: null,
    contentLoc: null,
    playerLoc: null,
    duration: null,
    expirationDate: null,
    rating: null,
    viewCount: null,
    publicationDate: null,
    familyFriendly: null,
    requiresSubscription: null,
    live: null,
    uploader: null,
    tags: [],
  });
});

Deno.test("toJSON() writes every page field, dates as ISO strings", () => {
  const page = new SitemapPage({
    url: "https://example.com/news/1",
    priority: 0.9,
    lastModified: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)),
    changeFrequency: "hourly",
    newsStory: new SitemapNewsStory({
      title: "Launch",
      publishDate: new Date(Date.UTC(2024, 0, 2)),
      publicationName: "Example News",
      publicationLanguage: "en",
      access: "Subscription",
      genres: ["PressRelease", "Blog"],
      keywords: ["rockets"],
      stockTickers: ["NASDAQ:EXMP"],
    }),
    images: [
      new SitemapImage({
        loc: "https://example.com/a.png",
        caption: "A",
        geoLocation: "Limerick, Ireland",
        title: "Alpha",
        license: "https://example.com/license",
      }),
    ],
    videos: [
      new SitemapVideo({
        thumbnailLoc: "https://example.com/t.jpg",
        title: "Grilling",
        description: "Steaks",
        contentLoc: "https://example.com/v.mp4",
        playerLoc: "https://example.com/player",
        duration: 600,
        expirationDate: new Date(Date.UTC(2030, 5, 1)),
        rating: 4.2,
        viewCount: 12345,
        publicationDate: new Date(Date.UTC(2020, 5, 1)),
        familyFriendly: true,
        requiresSubscription: false,
        live: false,
        uploader: "Chef",
        tags: ["food", "bbq"],
      }),
    ],
    alternates: [new SitemapAlternate({ hreflang: "de", href: "https://example.com/de/news/1" })],
  });
  assert.deepEqual(JSON.parse(JSON.stringify(page)), {
    url: "https://example.com/news/1",
    priority: 0.9,
    lastModified: "2024-01-02T03:04:05.000Z",
    changeFrequency: "hourly",
    newsStory: {
      title: "Launch",
      publishDate: "2024-01-02T00:00:00.000Z",
      publicationName: "Example News",
      publicationLanguage: "en",
      access: "Subscription",
      genres: ["PressRelease", "Blog"],
      keywords: ["rockets"],
      stockTickers: ["NASDAQ:EXMP"],
    },
    images: [{
      loc: "https://example.com/a.png",
      caption: "A",
      geoLocation: "Limerick, Ireland",
      title: "Alpha",
      license: "https://example.com/license",
    }],
    videos: [{
      thumbnailLoc: "https://example.com/t.jpg",
      title: "Grilling",
      description: "Steaks",
      contentLoc: "https://example.com/v.mp4",
      playerLoc: "https://example.com/player",
      duration: 600,
      expirationDate: "2030-06-01T00:00:00.000Z",
      rating: 4.2,
      viewCount: 12345,
      publicationDate: "2020-06-01T00:00:00.000Z",
      familyFriendly: true,
      requiresSubscription: false,
      live: false,
      uploader: "Chef",
      tags: ["food", "bbq"],
    }],
    alternates: [{ hreflang: "de", href: "https://example.com/de/news/1" }],
  });
});
