// Handlers of this family: see routes/table.ts for the operations it serves.
export {};
