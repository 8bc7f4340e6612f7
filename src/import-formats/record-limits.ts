// The longest address either importer takes (imagery records and places alike).
export const MAX_ADDRESS_LENGTH = 1000;
