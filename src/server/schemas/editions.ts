// Body schemas of this family: see routes/table.ts (body: '<family>.<name>').
export {};
