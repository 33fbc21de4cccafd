/**
 * The module's service, empty on purpose. `Module()` needs one, and the module exists so that
 * Medusa runs the plugin's migrations (`./migrations`); nothing resolves it. All SQL against
 * the plugin's tables lives in `src/internal/records/`, one class per table, because the
 * provider cannot resolve another module's service (module isolation) and shares only the
 * database connection. See README.md next to this file for why there are no DML models.
 */
export default class PixCheckoutModuleService {}
