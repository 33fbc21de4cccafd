import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { PICKED_LANGUAGE_KEY, pickedAdminLanguage, recordLanguagePicks } from "./language-choice";

/** A page's local storage, in memory. */
function memoryStorage(): Pick<Storage, "getItem" | "setItem"> {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
  };
}

/** Medusa's dashboard's i18next set-up: its resources, `en` when nothing is detected. */
function dashboardI18n() {
  return i18next.createInstance({
    resources: { en: { translation: {} }, ptBR: { translation: {} } },
    fallbackLng: "en",
    supportedLngs: ["en", "ptBR"],
  });
}

describe("recordLanguagePicks", () => {
  it("records nothing for the language the dashboard falls back to while it starts", async () => {
    const storage = memoryStorage();
    const i18n = dashboardI18n();
    const waiting: (() => void)[] = [];
    recordLanguagePicks(
      () => i18n,
      storage,
      (next) => void waiting.push(next),
    );
    await i18n.init();
    waiting.shift()?.();
    expect(i18n.language).toBe("en");
    expect(pickedAdminLanguage(storage)).toBeNull();
  });

  it("records English picked in the profile, though the dashboard was in English already", async () => {
    const storage = memoryStorage();
    const i18n = dashboardI18n();
    await i18n.init();
    recordLanguagePicks(() => i18n, storage);
    // What the profile form does on save.
    await i18n.changeLanguage("en");
    expect(storage.getItem(PICKED_LANGUAGE_KEY)).toBe("en");
    await i18n.changeLanguage("ptBR");
    expect(pickedAdminLanguage(storage)).toBe("ptBR");
  });

  it("waits for the dashboard's instance, and gives up after the tries it is given", () => {
    let calls = 0;
    const waiting: (() => void)[] = [];
    recordLanguagePicks(
      () => void calls++,
      memoryStorage(),
      (next) => void waiting.push(next),
      2,
    );
    while (waiting.length > 0) waiting.shift()!();
    expect(calls).toBe(3);
  });

  it("reads no pick where there is no storage", () => {
    expect(pickedAdminLanguage(undefined)).toBeNull();
  });
});
