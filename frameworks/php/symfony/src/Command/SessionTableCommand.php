<?php

namespace App\Command;

use Symfony\Component\Console\Attribute\AsCommand;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Output\OutputInterface;
use Symfony\Component\HttpFoundation\Session\Storage\Handler\PdoSessionHandler;

// Creates PdoSessionHandler's table, the step Symfony's session documentation has run once on deploy.
#[AsCommand(name: 'app:session-table', description: "Creates the sessions table of PdoSessionHandler")]
class SessionTableCommand extends Command
{
    public function __construct(private PdoSessionHandler $handler)
    {
        parent::__construct();
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        try {
            $this->handler->createTable();
        } catch (\PDOException $e) {
            // 42P07: duplicate_table, the table of an earlier start in the same database.
            if ($e->getCode() !== '42P07') {
                throw $e;
            }
        }
        return Command::SUCCESS;
    }
}
