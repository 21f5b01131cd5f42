import { main } from '../api/main.ts';

await main();
