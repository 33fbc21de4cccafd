import { describe, expect, it } from "vitest";
import { adminLanguageFromBrowser, firstVisitLanguageScript } from "./index";

/** Runs the page's script against a browser with these languages, cookie and storage. */
function firstVisit(languages: string[], stored: Record<string, string> = {}, cookie = "") {
  const storage = new Map(Object.entries(stored));
  const localStorage = {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, value),
  };
  const navigator = { languages, language: languages[0] };
  new Function("localStorage", "navigator", "document", firstVisitLanguageScript)(
    localStorage,
    navigator,
    { cookie },
  );
  return storage.get("lng") ?? null;
}

describe("the admin's language on a first visit", () => {
  it("stores Medusa's Portuguese for a browser whose first language is Portuguese", () => {
    expect(firstVisit(["pt-BR", "pt", "en-US"])).toBe("ptBR");
    expect(firstVisit(["pt"])).toBe("ptBR");
  });

  it("leaves any other browser to Medusa's own choice", () => {
    expect(firstVisit(["en-US", "pt-BR"])).toBeNull();
    expect(firstVisit(["ptx"])).toBeNull();
  });

  it("keeps a language already picked, in storage or in the cookie", () => {
    expect(firstVisit(["pt-BR"], { lng: "en" })).toBe("en");
    expect(firstVisit(["pt-BR"], {}, "a=1; lng=en")).toBeNull();
  });

  it("runs first in the admin's page", () => {
    const [tag] = adminLanguageFromBrowser().transformIndexHtml();
    expect(tag).toEqual({
      tag: "script",
      children: firstVisitLanguageScript,
      injectTo: "head-prepend",
    });
  });
});
